package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OptionValuesTest {

    @Test
    void columnSpecsReadCountAndIndexFlag() {
        assertThat(ColumnSpec.parse("3", "number-int-cols")).isEqualTo(new ColumnSpec(3, false));
        assertThat(ColumnSpec.parse("2:1", "number-int-cols")).isEqualTo(new ColumnSpec(2, true));
        assertThat(ColumnSpec.parse("2:0", "number-int-cols")).isEqualTo(new ColumnSpec(2, false));
        assertThatThrownBy(() -> ColumnSpec.parse("x", "number-char-cols"))
                .hasMessageStartingWith("Invalid value specified for the option 'number-char-cols'");
    }

    @Test
    void enginesAreACommaListWithOptionalTableOptions() {
        assertThat(EngineSpec.parseList("innodb:ROW_FORMAT=DYNAMIC, memory")).containsExactly(
                new EngineSpec("innodb", "ROW_FORMAT=DYNAMIC"), new EngineSpec("memory", null));
        assertThat(new EngineSpec("innodb", "ROW_FORMAT=DYNAMIC").tableSuffix()).isEqualTo(" Engine = innodb ROW_FORMAT=DYNAMIC");
        assertThat(new EngineSpec("memory", null).tableSuffix()).isEqualTo(" Engine = memory");
        assertThatThrownBy(() -> EngineSpec.parseList(",innodb")).hasMessageContaining("'engine'");
    }

    @Test
    void numbersTakeMysqlSuffixesAndFailWithExitNine() {
        assertThat(MysqlNumber.parse("10K", "number-of-queries", 0, Long.MAX_VALUE)).isEqualTo(10240);
        assertThat(MysqlNumber.parse("1m", "number-of-queries", 0, Long.MAX_VALUE)).isEqualTo(1 << 20);
        assertThat(MysqlNumber.parse(" 42 ", "iterations", 0, 100)).isEqualTo(42);
        assertThatThrownBy(() -> MysqlNumber.parse("abc", "iterations", 0, 100))
                .hasMessage("Unknown suffix 'c' used for variable 'iterations' (value 'abc'). Legal suffix characters"
                        + " are: K, M, G, T, P, E\nslap: Error while setting value 'abc' to 'iterations'")
                .extracting(e -> ((SlapException) e).exitCode()).isEqualTo(9);
        assertThatThrownBy(() -> MysqlNumber.parse("-1", "iterations", 0, 100)).hasMessageContaining("out of range");
        assertThatThrownBy(() -> MysqlNumber.parseDouble("0", "rate")).hasMessageContaining("a number > 0");
    }

    @Test
    void loadTypeReadsTheFirstLetter() {
        assertThat(LoadType.of("read")).isEqualTo(LoadType.READ);
        assertThat(LoadType.of("k")).isEqualTo(LoadType.KEY);
        assertThat(LoadType.of("write")).isEqualTo(LoadType.WRITE);
        assertThat(LoadType.of("upd")).isEqualTo(LoadType.UPDATE);
        assertThat(LoadType.of("mixed")).isEqualTo(LoadType.MIXED);
        assertThat(LoadType.of("Read")).isEqualTo(LoadType.MIXED);
    }

    @Test
    void statementsAreSortedIntoReadWriteOther() {
        assertThat(List.of("select 1", " SHOW TABLES", "insert into t values (1)", "REPLACE t", "update t set a=1",
                "delete from t", "commit", "set autocommit=0", "")).extracting(Statement::categorize)
                .containsExactly(Statement.Category.READ, Statement.Category.READ, Statement.Category.WRITE,
                        Statement.Category.WRITE, Statement.Category.WRITE, Statement.Category.WRITE,
                        Statement.Category.OTHER, Statement.Category.OTHER, Statement.Category.OTHER);
    }

    @Test
    void openFileLimitIsReadFromProcLimitsAndSaysHowToRaiseIt() {
        OpenFileLimit limit = OpenFileLimit.parse(List.of(
                "Limit                     Soft Limit           Hard Limit           Units",
                "Max processes             95163                95163                processes",
                "Max open files            1024                 4096                 files"));
        assertThat(limit).isEqualTo(new OpenFileLimit(1024, 4096));
        limit.check(900);
        assertThatThrownBy(() -> limit.check(2000))
                .hasMessageContaining("2000 clients need about 2064 open files")
                .hasMessageContaining("may open only 1024")
                .hasMessageContaining("ulimit -n 2064");
        assertThatThrownBy(() -> limit.check(8000)).hasMessageContaining("The hard limit is 4096")
                .hasMessageContaining("ulimit -Hn 8064");
        new OpenFileLimit(-1, -1).check(100_000);
        assertThat(OpenFileLimit.parse(List.of("Max open files            unlimited            unlimited            files")))
                .isEqualTo(new OpenFileLimit(-1, -1));
        assertThat(OpenFileLimit.current()).isNotNull();
    }

    @Test
    void pkcs1KeysAreWrappedAsPkcs8() {
        byte[] wrapped = TlsProperties.pkcs1ToPkcs8(new byte[] {0x30, 0x00});
        assertThat(java.util.HexFormat.of().formatHex(wrapped))
                .isEqualTo("3016" + "020100" + "300d06092a864886f70d0101010500" + "0402" + "3000");
    }
}
