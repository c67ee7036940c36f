package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlapOptionsTest {

    @Test
    void defaultsAreMysqlslaps() {
        SlapOptions o = SlapOptions.builder().build();
        assertThat(o.concurrency()).containsExactly(1);
        assertThat(o.iterations()).isEqualTo(1);
        assertThat(o.numberOfQueries()).isZero();
        assertThat(o.workload().loadType()).isEqualTo("mixed");
        assertThat(o.workload().uniqueQueryNumber()).isEqualTo(10);
        assertThat(o.workload().uniqueWriteNumber()).isEqualTo(10);
        assertThat(o.workload().writeNumber()).isEqualTo(100);
        assertThat(o.workload().intCols()).isEqualTo(new ColumnSpec(1, false));
        assertThat(o.workload().charCols()).isEqualTo(new ColumnSpec(1, false));
        assertThat(o.workload().delimiter()).isEqualTo("\n");
        assertThat(o.workload().createSchema()).isEqualTo("mysqlslap");
        assertThat(o.connection().port()).isEqualTo(3306);
        assertThat(o.connection().ssl().sslMode()).isEqualTo("DISABLED");
        assertThat(o.silent()).isFalse();
    }

    @Test
    void conflictsFailWithMysqlslapsMessagesInItsOrder() {
        assertThatThrownBy(() -> SlapOptions.builder().autoGenerateSql(true).query("select 1")
                .addAutoincrement(true).guidPrimary(true).build())
                .hasMessage("Can't use --auto-generate-sql when create and query strings are specified!")
                .extracting(e -> ((SlapException) e).exitCode()).isEqualTo(1);
        assertThatThrownBy(() -> SlapOptions.builder().autoGenerateSql(true).addAutoincrement(true).guidPrimary(true).build())
                .hasMessage("Either auto-generate-sql-guid-primary or auto-generate-sql-add-autoincrement can be used!");
        assertThatThrownBy(() -> SlapOptions.builder().autoGenerateSql(true).loadType("key").build())
                .hasMessage("Can't perform key test without a primary key!");
        assertThatThrownBy(() -> SlapOptions.builder().autoGenerateSql(true).numberOfQueries(5).executeNumber(3).build())
                .hasMessage("Either auto-generate-sql-execute-number or number-of-queries can be used!");
        // mysqlslap only checks these with --auto-generate-sql.
        assertThat(SlapOptions.builder().loadType("key").build()).isNotNull();
    }

    @Test
    void queriesPerClientIsTheTotalDividedByClientsRoundedDown() {
        SlapOptions o = SlapOptions.builder().autoGenerateSql(true).numberOfQueries(1000).build();
        Workload w = Workload.build(o.workload(), new RandomValues(new SplittableRandom(1)));
        assertThat(o.clientLimit(1, w)).isEqualTo(1000);
        assertThat(o.clientLimit(3, w)).isEqualTo(333);
        assertThat(o.clientLimit(2000, w)).isZero();
        SlapOptions execute = SlapOptions.builder().autoGenerateSql(true).executeNumber(7).build();
        assertThat(execute.clientLimit(50, w)).isEqualTo(7);
        SlapOptions none = SlapOptions.builder().autoGenerateSql(true).build();
        assertThat(none.clientLimit(5, w)).isZero();
        SlapOptions query = SlapOptions.builder().query("a;b").delimiter(";").build();
        assertThat(query.clientLimit(5, Workload.build(query.workload(), new RandomValues(new SplittableRandom(1)))))
                .isEqualTo(2);
        SlapOptions timed = SlapOptions.builder().query("a;b").delimiter(";").timeSeconds(5).build();
        assertThat(timed.clientLimit(5, Workload.build(timed.workload(), new RandomValues(new SplittableRandom(1)))))
                .isZero();
    }

    @Test
    void concurrencyIsACommaListOfPositiveCounts() {
        assertThat(SlapOptions.parseConcurrency("1,25, 50,100")).containsExactly(1, 25, 50, 100);
        assertThatThrownBy(() -> SlapOptions.parseConcurrency("1,x"))
                .hasMessageContaining("Invalid value specified for the option 'concurrency': '1,x' at 'x'");
        assertThatThrownBy(() -> SlapOptions.parseConcurrency("0")).hasMessageContaining("--sweep");
    }

    @Test
    void sweepPlansDoublingClientsUpToItsMaximum() {
        SlapOptions o = SlapOptions.builder().sweepMax(20).build();
        assertThat(o.plannedConcurrency()).containsExactly(1, 2, 4, 8, 16);
        assertThat(o.maxClients()).isEqualTo(16);
        assertThatThrownBy(() -> SlapOptions.builder().sweepMax(8).rate(100).build())
                .hasMessageContaining("--sweep and --rate cannot be combined");
    }

    @Test
    void schemaIsDroppedOnlyWhenSlapCreatedIt() {
        assertThat(SlapOptions.builder().autoGenerateSql(true).build().preserveSchema()).isFalse();
        assertThat(SlapOptions.builder().autoGenerateSql(true).noDrop(true).build().preserveSchema()).isTrue();
        assertThat(SlapOptions.builder().query("select 1").build().preserveSchema()).isTrue();
        assertThat(SlapOptions.builder().create("create table a(i int)").build().preserveSchema()).isFalse();
    }

    @Test
    void badNumbersAreRefused() {
        assertThatThrownBy(() -> SlapOptions.builder().iterations(0).build()).hasMessage("--iterations: 0 (expected: >= 1)");
        assertThatThrownBy(() -> SlapOptions.builder().concurrency(List.of()).build()).hasMessageContaining("--concurrency");
        assertThatThrownBy(() -> SlapOptions.builder().rate(Double.NaN).build()).hasMessageContaining("--rate");
        assertThatThrownBy(() -> SlapOptions.builder().port(0).build()).hasMessageContaining("--port: 0");
    }

    @Test
    void csvAndOnlyPrintSilenceTheTextBlock() {
        assertThat(SlapOptions.builder().csv("-").build().silent()).isTrue();
        assertThat(SlapOptions.builder().onlyPrint(true).build().silent()).isTrue();
    }

    @Test
    void sslModeFollowsTheOptions() {
        assertThat(new SslOptions(true, null, null, null, null, null, null, false).sslMode()).isEqualTo("REQUIRED");
        assertThat(new SslOptions(true, "ca.pem", null, null, null, null, null, false).sslMode()).isEqualTo("VERIFY_CA");
        assertThat(new SslOptions(true, "ca.pem", null, null, null, null, null, true).sslMode()).isEqualTo("VERIFY_IDENTITY");
        assertThat(SslOptions.DISABLED.sslMode()).isEqualTo("DISABLED");
    }
}
