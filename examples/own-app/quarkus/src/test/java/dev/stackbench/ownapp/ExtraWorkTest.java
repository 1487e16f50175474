package dev.stackbench.ownapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ExtraWorkTest {

    @ParameterizedTest(name = "{0} %")
    @ValueSource(ints = {0, 1, 7, 10, 33, 50, 100})
    void repeatsExactlyThePercentOfEveryHundredRequests(int percent) {
        ExtraWork extra = new ExtraWork(percent);
        for (int block = 0; block < 3; block++) {
            long repeated = IntStream.range(0, 100).filter(i -> extra.repeatNext()).count();
            assertThat(repeated).as("block %d", block).isEqualTo(percent);
        }
    }

    @Test
    void tenPercentIsSpreadEvenlyNotBunched() {
        ExtraWork extra = new ExtraWork(10);
        for (int ten = 0; ten < 20; ten++) {
            long repeated = IntStream.range(0, 10).filter(i -> extra.repeatNext()).count();
            assertThat(repeated).as("requests %d..%d", ten * 10 + 1, ten * 10 + 10).isEqualTo(1);
        }
    }

    @Test
    void aPercentOutOfRangeIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new ExtraWork(101)).hasMessageContaining("ownapp.extra-work-percent = 101");
        assertThatThrownBy(() -> new ExtraWork(-1)).hasMessageContaining("0..100");
    }
}
