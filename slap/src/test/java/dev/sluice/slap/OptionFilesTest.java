package dev.sluice.slap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** my.cnf files as mariadb-slap reads them, and what slap makes of them. */
class OptionFilesTest {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private OptionFiles.Result read(OptionFiles.Selection selection, OptionFiles.Locations where) {
        CommandLine.Model.CommandSpec spec = new CommandLine(new SlapCommand(OptionFiles.Locations.none())).getCommandSpec();
        return OptionFiles.read(selection, where, name -> OptionFiles.kindOf(spec, name));
    }

    private List<String> texts(Path only) {
        return read(new OptionFiles.Selection(false, only, null, null), OptionFiles.Locations.none()).texts();
    }

    /** Runs slap with {@code user} as ~/.my.cnf and no global files. */
    private static SlapCommandTest.Run slap(Path user, String... args) {
        return SlapCommandTest.slap(new OptionFiles.Locations(List.of(), user), args);
    }

    @Test
    void readsTheGroupsMariadbSlapReadsAndPassesOverOthers() throws IOException {
        Path file = write("my.cnf", """
                # a comment
                ; another
                [mysqld]
                port = 9999
                [client]
                user = bob
                [client-server]
                port=3307
                [mysql]
                auto-rehash
                [mysqlslap]
                concurrency = 4
                [mariadb-slap]
                iterations=2
                [client-mariadb]
                host = db1
                """);
        assertThat(texts(file)).containsExactly("--user=bob", "--port=3307", "--concurrency=4", "--iterations=2", "--host=db1");
    }

    @Test
    void debiansSocketForAllClientsIsPassedOverAsSlapConnectsOverTcp() throws IOException {
        Path file = write("my.cnf", "[client-server]\nsocket = /run/mysqld/mysqld.sock\n[client]\nprotocol=socket\nport=3307\n");
        assertThat(texts(file)).containsExactly("--port=3307");
    }

    @Test
    void valuesQuotedEscapedAndCommented() throws IOException {
        Path file = write("my.cnf", """
                [client]
                password = "se#cret 'x'"   # quoted: the hash is part of it
                user='a b'
                host = db1 # a comment after a bare value
                init_command = SET\\sNAMES\\tutf8mb4\\\\
                """);
        assertThat(texts(file)).containsExactly("--password=se#cret 'x'", "--user=a b", "--host=db1",
                "--init-command=SET NAMES\tutf8mb4\\");
    }

    @Test
    void laterLinesWinAndFlagsTurnOffWithPrefixesOrZero() throws IOException {
        Path file = write("my.cnf", """
                [client]
                host=first
                compress
                ssl
                [mysqlslap]
                host=second
                skip-compress
                ssl=0
                only_print=1
                loose-no-such-option=3
                enable-no-drop
                """);
        assertThat(texts(file)).containsExactly("--host=second", "--only-print", "--no-drop");
    }

    @Test
    void includesAFileAndTheCnfFilesOfAFolderInNameOrder() throws IOException {
        write("conf.d/20-b.cnf", "[client]\nport=2\n");
        write("conf.d/10-a.cnf", "[client]\nport=1\nuser=a\n");
        write("conf.d/ignored.txt", "[client]\nuser=txt\n");
        write("extra.cnf", "[client]\nhost=included\n");
        Path file = write("my.cnf", "[client]\nhost=before\n!includedir " + dir.resolve("conf.d") + "\n!include extra.cnf\n");
        // An option stands where its last line put it.
        assertThat(texts(file)).containsExactly("--user=a", "--port=2", "--host=included");
    }

    @Test
    void filesAreReadGlobalThenExtraThenTheUsersAndTheSelectionIsHonoured() throws IOException {
        Path global = write("etc/my.cnf", "[client]\nhost=global\nuser=g\n");
        Path extra = write("extra.cnf", "[client]\nhost=extra\n");
        Path user = write("home/.my.cnf", "[client]\nuser=home\n");
        OptionFiles.Locations where = new OptionFiles.Locations(List.of(global, dir.resolve("missing.cnf")), user);
        assertThat(read(new OptionFiles.Selection(false, null, extra, null), where).texts())
                .containsExactly("--host=extra", "--user=home");
        assertThat(read(new OptionFiles.Selection(false, null, null, null), where).texts())
                .containsExactly("--host=global", "--user=home");
        assertThat(read(new OptionFiles.Selection(false, extra, null, null), where).texts()).containsExactly("--host=extra");
        assertThat(read(new OptionFiles.Selection(true, extra, extra, null), where).texts()).isEmpty();
    }

    @Test
    void aGroupSuffixAddsItsGroups() throws IOException {
        Path file = write("my.cnf", "[client]\nport=1\n[client_test]\nport=2\n[mysqlslap_test]\nuser=t\n");
        assertThat(read(new OptionFiles.Selection(false, file, null, "_test"), OptionFiles.Locations.none()).texts())
                .containsExactly("--port=2", "--user=t");
        assertThat(texts(file)).containsExactly("--port=1");
    }

    @Test
    void anUnknownOptionInSlapsOwnGroupIsAnErrorNamingFileAndLine() throws IOException {
        Path file = write("my.cnf", "[client]\ndefault-character-set=utf8mb4\n[mysqlslap]\nconcurrency=2\nconcurency=3\n");
        assertThatThrownBy(() -> texts(file)).isInstanceOf(SlapException.class)
                .hasMessage("unknown variable 'concurency=3' in " + file + " line 5 (group [mysqlslap])")
                .extracting(e -> ((SlapException) e).exitCode()).isEqualTo(7);
    }

    @Test
    void malformedFilesAreFatalWithTheLine() throws IOException {
        Path noGroup = write("a.cnf", "\nuser=x\n");
        assertThatThrownBy(() -> texts(noGroup)).hasMessageStartingWith(
                "Found option without preceding group in config file " + noGroup + " at line 2");
        Path badGroup = write("b.cnf", "[client\n");
        assertThatThrownBy(() -> texts(badGroup)).hasMessageStartingWith(
                "Wrong group definition in config file " + badGroup + " at line 1");
        Path badDirective = write("c.cnf", "[client]\n!inclde x\n");
        assertThatThrownBy(() -> texts(badDirective)).hasMessageStartingWith("Wrong '!' directive in config file");
        Path noValue = write("d.cnf", "[client]\nport\n");
        assertThatThrownBy(() -> texts(noValue)).hasMessage("option '--port' requires an argument, in " + noValue + " line 2");
        Path badFlag = write("e.cnf", "[client]\ncompress=maybe\n");
        assertThatThrownBy(() -> texts(badFlag)).hasMessageContaining("not 'maybe', in " + badFlag + " line 2");
        Path loop = write("f.cnf", "[client]\n!include f.cnf\n");
        assertThatThrownBy(() -> texts(loop)).hasMessageContaining("does it include itself?");
        assertThatThrownBy(() -> texts(dir.resolve("absent.cnf")))
                .hasMessage("Could not open required defaults file: " + dir.resolve("absent.cnf"));
    }

    @Test
    void aWorldWritableFileIsIgnoredWithAWarning() throws IOException {
        Path file = write("my.cnf", "[client]\nuser=anyone\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        OptionFiles.Result result = read(new OptionFiles.Selection(false, file, null, null), OptionFiles.Locations.none());
        assertThat(result.texts()).isEmpty();
        assertThat(result.warnings()).containsExactly("World-writable config file '" + file + "' is ignored");
    }

    @Test
    void theCommandLineWinsOverTheFiles() throws IOException {
        Path user = write(".my.cnf", "[mysqlslap]\nquery=SELECT 'from the file'\nconcurrency=2\n");
        SlapCommandTest.Run fromFile = slap(user, "--only-print");
        assertThat(fromFile.exit()).as(fromFile.err()).isZero();
        assertThat(fromFile.out()).isEqualTo("SELECT 'from the file';\nSELECT 'from the file';\n");
        SlapCommandTest.Run overridden = slap(user, "--only-print", "--query=SELECT 2", "-c", "1");
        assertThat(overridden.out()).isEqualTo("SELECT 2;\n");
        SlapCommandTest.Run none = slap(user, "--only-print", "--no-defaults", "--query=SELECT 3");
        assertThat(none.out()).isEqualTo("SELECT 3;\n");
    }

    @Test
    void printDefaultsShowsTheArgumentsWithThePasswordMasked() throws IOException {
        Path user = write(".my.cnf", "[client]\nuser=app\npassword=secret\n[mysqlslap]\nconcurrency=8\n");
        SlapCommandTest.Run run = slap(user, "--print-defaults");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("slap would have been started with the following arguments:\n"
                + "--user=app --password=***** --concurrency=8 \n");
    }

    @Test
    void aFailedRunSaysWhichOptionsCameFromFiles() throws IOException {
        Path user = write(".my.cnf", "[client]\nport=70000\npassword=secret\n");
        SlapCommandTest.Run run = slap(user, "--only-print", "--query=SELECT 1");
        assertThat(run.exit()).isNotZero();
        assertThat(run.err()).contains("slap: these options came from option files: --port=70000 (" + user
                + " line 2), --password=***** (" + user + " line 3) (--no-defaults reads none)");
    }

    @Test
    void underTheSluiceCommandTheFilesFillTheSubcommandsOptions() throws IOException {
        Path user = write(".my.cnf", "[mysqlslap]\nconcurrency=3\n");
        StringWriter out = new StringWriter();
        CommandLine line = new CommandLine(new Parent())
                .addSubcommand(new SlapCommand(new OptionFiles.Locations(List.of(), user)));
        line.setOut(new PrintWriter(out, true));
        int exit = line.execute("slap", "--only-print", "--query=SELECT 4");
        assertThat(exit).isZero();
        assertThat(out.toString()).isEqualTo("SELECT 4;\nSELECT 4;\nSELECT 4;\n");
    }

    @Command(name = "parent")
    static final class Parent implements Runnable {
        @Override
        public void run() {
        }
    }
}
