package dev.sluice.slap;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For the same options, {@code mariadb-slap --only-print} and {@code slap --only-print} print the
 * same statements once the random values are masked. mariadb-slap's client threads interleave
 * their lines, so with more than one client the lines are compared as sorted lists.
 */
class OnlyPrintCompatibilityIT {

    private static final Path MARIADB_SLAP = Path.of("/usr/bin/mariadb-slap");

    @BeforeAll
    static void needsMariadbSlap() {
        Assumptions.assumeTrue(Files.isExecutable(MARIADB_SLAP), "skipped: " + MARIADB_SLAP
                + " is not installed (Debian package mariadb-client; ./sluice test installs it)");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "-a --number-of-queries=10 --auto-generate-sql-write-number=5",
        "-a --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=key --number-of-queries=5 -x 2:1 -y 3 --auto-generate-sql-secondary-indexes=2",
        "-a --auto-generate-sql-guid-primary --auto-generate-sql-load-type=update -c 1,2 -i 2 --commit=2 -e innodb,memory:MAX_ROWS=10 --number-of-queries=4 --auto-generate-sql-unique-query-number=3",
        "-a --auto-generate-sql-load-type=read -x 0 -y 2 --auto-generate-sql-execute-number=3 -c 3 --auto-generate-sql-write-number=1",
        "-a --auto-generate-sql-load-type=write --auto-generate-sql-unique-write-number=2 --auto-generate-sql-unique-query-number=2 --no-drop",
        "-a -c 4 --number-of-queries=2 --auto-generate-sql-write-number=2",
        "--create=CREATE TABLE a (i int);INSERT INTO a VALUES (1) --query=SELECT * FROM a;UPDATE a SET i=2 -F ; --pre-query=SET @a=1 --post-query=SET @a=2 -i 2 --create-schema=other",
        "--query=SELECT 1 -c 2 --number-of-queries=6"
    })
    void sameStatementsAsMariadbSlap(String options) throws Exception {
        List<String> args = split(options);
        List<String> theirs = mask(mariadbSlap(args));
        List<String> all = new ArrayList<>(List.of("--only-print"));
        all.addAll(args);
        SlapCommandTest.Run ours = SlapCommandTest.slap(all.toArray(String[]::new));
        assertThat(ours.exit()).as(ours.err()).isZero();
        List<String> mine = mask(ours.out());
        assertThat(theirs).isNotEmpty();
        if (options.contains("-c ")) {
            assertThat(mine).containsExactlyInAnyOrderElementsOf(theirs);
        } else {
            assertThat(mine).containsExactlyElementsOf(theirs);
        }
    }

    /** Splits on " -" so that values with blanks (SQL) stay whole. */
    private static List<String> split(String options) {
        List<String> args = new ArrayList<>();
        for (String part : (" " + options).split(" (?=-)")) {
            if (part.isBlank()) {
                continue;
            }
            int blank = part.indexOf(' ');
            if (part.startsWith("--") || blank < 0) {
                args.add(part);
            } else {
                args.add(part.substring(0, blank));
                args.add(part.substring(blank + 1));
            }
        }
        return args;
    }

    private static String mariadbSlap(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(MARIADB_SLAP.toString(), "--no-defaults", "--only-print"));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(new String(output, StandardCharsets.UTF_8)).isZero();
        return new String(output, StandardCharsets.UTF_8);
    }

    private static List<String> mask(String output) {
        return Arrays.stream(output.split("\n"))
                .map(line -> line.replaceAll("'[0-9A-Za-z]{126}'", "'S'"))
                .map(line -> line.startsWith("INSERT") || line.startsWith("UPDATE") ? line.replaceAll("\\d+", "N") : line)
                .toList();
    }
}
