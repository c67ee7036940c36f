package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class SqlGeneratorTest {

    private static SqlGenerator generator(SlapOptions.Builder builder) {
        return new SqlGenerator(builder.autoGenerateSql(true).build().workload(),
                new RandomValues(new SplittableRandom(7)));
    }

    @Test
    void defaultTableIsMysqlslapsWithItsTrailingBlank() {
        assertThat(generator(SlapOptions.builder()).createTable().sql())
                .isEqualTo("CREATE TABLE `t1` (intcol1 INT(32) ,charcol1 VARCHAR(128))");
    }

    @Test
    void autoincrementSecondaryIndexesAndIndexedColumns() {
        SqlGenerator sql = generator(SlapOptions.builder().addAutoincrement(true).secondaryIndexes(2)
                .intCols(new ColumnSpec(2, true)).charCols(new ColumnSpec(2, true)));
        assertThat(sql.createTable().sql()).isEqualTo("CREATE TABLE `t1` (id serial,id0 varchar(36) unique key,"
                + "id1 varchar(36) unique key,intcol1 INT(32), INDEX(intcol1),intcol2 INT(32), INDEX(intcol2),"
                + "charcol1 VARCHAR(128), INDEX(charcol1) ,charcol2 VARCHAR(128), INDEX(charcol2) )");
        assertThat(sql.createTable().kind()).isEqualTo(Statement.Kind.CREATE_TABLE);
    }

    @Test
    void guidPrimaryKeyAlwaysHasItsComma() {
        assertThat(generator(SlapOptions.builder().guidPrimary(true)).createTable().sql())
                .isEqualTo("CREATE TABLE `t1` (id varchar(36) primary key,intcol1 INT(32) ,charcol1 VARCHAR(128))");
        assertThat(generator(SlapOptions.builder().guidPrimary(true).intCols(new ColumnSpec(0, false))
                .charCols(new ColumnSpec(0, false))).createTable().sql())
                .isEqualTo("CREATE TABLE `t1` (id varchar(36) primary key,)");
    }

    @Test
    void insertHasNullOrUuidThenRandomNumbersAndStrings() {
        Statement insert = generator(SlapOptions.builder().addAutoincrement(true).secondaryIndexes(1)
                .intCols(new ColumnSpec(2, false))).insert();
        assertThat(insert.sql()).matches("INSERT INTO t1 VALUES \\(NULL,uuid\\(\\),\\d+,\\d+,'[0-9A-Za-z]{126}'\\)");
        assertThat(insert.kind()).isEqualTo(Statement.Kind.PLAIN);
        assertThat(insert.category()).isEqualTo(Statement.Category.WRITE);
        Statement guid = generator(SlapOptions.builder().guidPrimary(true)).insert();
        assertThat(guid.sql()).matches("INSERT INTO t1 VALUES \\(uuid\\(\\),\\d+,'[0-9A-Za-z]{126}'\\)");
    }

    @Test
    void updateIsKeyedOnlyWithAnIdColumn() {
        Statement plain = generator(SlapOptions.builder()).update();
        assertThat(plain.sql()).matches("UPDATE t1 SET intcol1 = \\d+,charcol1 = '[0-9A-Za-z]{126}'");
        assertThat(plain.kind()).isEqualTo(Statement.Kind.PLAIN);
        Statement keyed = generator(SlapOptions.builder().addAutoincrement(true)).update();
        assertThat(keyed.sql()).endsWith("' WHERE id = ");
        assertThat(keyed.render("42")).endsWith(" WHERE id =  '42'");
    }

    @Test
    void selectListsEveryColumnAndKeyedSelectNeedsAnId() {
        SqlGenerator sql = generator(SlapOptions.builder().intCols(new ColumnSpec(2, false)).charCols(new ColumnSpec(3, false)));
        assertThat(sql.select(false).sql()).isEqualTo("SELECT intcol1,intcol2,charcol1,charcol2,charcol3 FROM t1");
        assertThat(sql.select(true).kind()).isEqualTo(Statement.Kind.PLAIN);
        Statement keyed = generator(SlapOptions.builder().addAutoincrement(true)).select(true);
        assertThat(keyed.sql()).isEqualTo("SELECT intcol1,charcol1 FROM t1 WHERE id = ");
        assertThat(keyed.render("796c4422-1d94-102a-9d6d-00e0812d"))
                .isEqualTo("SELECT intcol1,charcol1 FROM t1 WHERE id =  '796c4422-1d94-102a-9d6d-00e0812d'");
        assertThat(keyed.category()).isEqualTo(Statement.Category.READ);
    }

    @Test
    void noColumnsGivesMysqlslapsEmptyLists() {
        SqlGenerator sql = generator(SlapOptions.builder().intCols(new ColumnSpec(0, false)).charCols(new ColumnSpec(0, false)));
        assertThat(sql.createTable().sql()).isEqualTo("CREATE TABLE `t1` ()");
        assertThat(sql.insert().sql()).isEqualTo("INSERT INTO t1 VALUES ()");
        assertThat(sql.select(false).sql()).isEqualTo("SELECT  FROM t1");
    }

    @Test
    void randomStringsUseTheSixtyCharacterAlphabetWithoutUAndV() {
        RandomValues random = new RandomValues(new SplittableRandom(1));
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            String s = random.string();
            assertThat(s).hasSize(126);
            all.append(s);
        }
        assertThat(RandomValues.ALPHABET).hasSize(60);
        assertThat(all.toString()).doesNotContain("U", "V").matches("[0-9A-Za-z]+");
        assertThat(all.chars().distinct().count()).isEqualTo(60);
        for (int i = 0; i < 1000; i++) {
            assertThat(random.number()).isBetween(0L, (1L << 31) - 1);
        }
    }
}
