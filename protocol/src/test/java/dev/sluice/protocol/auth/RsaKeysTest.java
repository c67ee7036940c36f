package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class RsaKeysTest {

    @Test
    void thePairIsMadeOnFirstUseOnceForAllCallers() throws Exception {
        RsaKeys keys = RsaKeys.generatedOnFirstUse();
        assertThat(keys.ready()).isFalse();
        assertThat(keys).hasToString("RsaKeys[2048 bits, not made yet]");

        List<Future<RsaKeyPair>> pairs;
        try (ExecutorService callers = Executors.newFixedThreadPool(4)) {
            Callable<RsaKeyPair> use = keys::pair;
            pairs = callers.invokeAll(List.of(use, use, use, use));
        }

        RsaKeyPair first = pairs.getFirst().get();
        for (Future<RsaKeyPair> pair : pairs) {
            assertThat(pair.get()).isSameAs(first);
        }
        assertThat(first.publicKey().getModulus().bitLength()).isEqualTo(RsaKeyPair.DEFAULT_BITS);
        assertThat(keys.ready()).isTrue();
        assertThat(keys.pair()).isSameAs(first);
    }

    @Test
    void aGivenPairIsReadyAsItIs() {
        RsaKeys keys = RsaKeys.of(TestKeys.PAIR);
        assertThat(keys.ready()).isTrue();
        assertThat(keys.pair()).isSameAs(TestKeys.PAIR);
        assertThat(keys).hasToString("RsaKeys[2048 bits, made]");
    }
}
