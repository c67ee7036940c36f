package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InsertLiteralsTest {

    private static InsertLiterals read(String sql) {
        return InsertLiterals.read(sql, SqlMode.DEFAULT);
    }

    @Test
    void mysqlslapsInsertHoldsItsIntegersAndTheDigitsItsStringsStartWith() {
        InsertLiterals literals = read("INSERT INTO t1 VALUES (NULL,1804289383,846930886,'xvtvmC9127',"
                + "'97RGHZ65mNzk','  42 apples','e6cS', 'E7')\0");
        assertThat(literals).isNotNull();
        assertThat(literals.couldStore(1804289383)).isTrue();
        assertThat(literals.couldStore(846930886)).isTrue();
        assertThat(literals.couldStore(97)).as("'97RGHZ...' stores 97 in an integer column").isTrue();
        assertThat(literals.couldStore(42)).as("leading spaces are skipped").isTrue();
        assertThat(literals.couldStore(0)).as("'xvtv...' stores 0").isTrue();
        assertThat(literals.couldStore(6)).as("'e6cS' is no exponent: it stores 0").isFalse();
        assertThat(literals.couldStore(101)).as("an id no literal spells was generated").isFalse();
    }

    @Test
    void rowsColumnListsOptionsAndQuotedNamesAreRead() {
        InsertLiterals literals = read("insert low_priority ignore into `db`.`t` (`id`, v) values (5, DEFAULT), "
                + "(0007, TRUE) /* 9 */ ;");
        assertThat(literals).isNotNull();
        assertThat(literals.couldStore(5)).isTrue();
        assertThat(literals.couldStore(7)).as("leading zeros").isTrue();
        assertThat(literals.couldStore(1)).as("TRUE").isTrue();
        assertThat(literals.couldStore(9)).as("in a comment").isFalse();
        assertThat(read("REPLACE t VALUE (3)").couldStore(3)).isTrue();
    }

    @Test
    void theLargestValueOfAnIntegerTypeMayBeALargerLiteralClipped() {
        InsertLiterals literals = read("INSERT INTO t VALUES (99999999999, 1)");
        assertThat(literals.couldStore(2_147_483_647)).isTrue();
        assertThat(literals.couldStore(127)).isTrue();
        assertThat(literals.couldStore(128)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "INSERT INTO t VALUES (2+3)",
        "INSERT INTO t VALUES (-5)",
        "INSERT INTO t VALUES (5.0)",
        "INSERT INTO t VALUES (5e0)",
        "INSERT INTO t VALUES (0x05)",
        "INSERT INTO t VALUES (X'05')",
        "INSERT INTO t VALUES (b'101')",
        "INSERT INTO t VALUES ('5.4')",
        "INSERT INTO t VALUES ('5e1')",
        "INSERT INTO t VALUES ('.5')",
        "INSERT INTO t VALUES ('-5')",
        "INSERT INTO t VALUES ('1' '2')",
        "INSERT INTO t VALUES (N'5')",
        "INSERT INTO t VALUES (_latin1'5')",
        "INSERT INTO t VALUES (\"5\")",
        "INSERT INTO t VALUES ('\\ 5')",
        "INSERT INTO t VALUES (@id)",
        "INSERT INTO t VALUES (?)",
        "INSERT INTO t VALUES (FLOOR(5.5))",
        "INSERT INTO t VALUES (LAST_INSERT_ID(5))",
        "INSERT INTO t VALUES (other_column)",
        "INSERT INTO t VALUES ((SELECT 5))",
        "INSERT INTO t VALUES (5) ON DUPLICATE KEY UPDATE v = 1",
        "INSERT INTO t VALUES (5) RETURNING id",
        "INSERT INTO t SET id = 5",
        "INSERT INTO t SELECT 5",
        "INSERT INTO t (id) SELECT 5 FROM dual",
        "INSERT INTO t VALUES (/*!50000 2+*/ 3)",
        "INSERT INTO t VALUES (5); INSERT INTO t VALUES (6)",
        "INSERT INTO t VALUES (5",
        "INSERT INTO t VALUES ('5)",
        "UPDATE t SET id = 5",
        "SELECT 5",
    })
    void anythingThatCouldComputeAValueIsNotRead(String sql) {
        assertThat(read(sql)).isNull();
    }

    @Test
    void aBulkInsertPastTheLimitIsNotRead() {
        StringBuilder sql = new StringBuilder("INSERT INTO t VALUES (0)");
        for (int i = 1; i < InsertLiterals.MAX_LITERALS; i++) {
            sql.append(",(").append(i).append(')');
        }
        assertThat(read(sql.toString())).isNotNull();
        assertThat(read(sql + ",(1)")).isNull();
    }

    @Test
    void bytesAreReadInTheSessionsCharacterSetAndSqlMode() {
        byte[] sql = "xINSERT INTO t VALUES ('5\\'', 6)".getBytes(StandardCharsets.UTF_8);
        assertThat(InsertLiterals.read(sql, 1, sql.length - 1, StandardCharsets.UTF_8, SqlMode.DEFAULT))
                .as("a backslash in the string").isNull();
        byte[] plain = "INSERT INTO t VALUES ('7', 6)".getBytes(StandardCharsets.UTF_8);
        InsertLiterals literals = InsertLiterals.read(plain, 0, plain.length, StandardCharsets.UTF_8,
                new SqlMode(true, false));
        assertThat(literals.couldStore(7)).isTrue();
        assertThat(literals.couldStore(6)).isTrue();
    }
}
