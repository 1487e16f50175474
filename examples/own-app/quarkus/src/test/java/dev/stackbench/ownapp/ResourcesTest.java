package dev.stackbench.ownapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.ws.rs.core.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import stackbench.contract.BadParameterException;
import stackbench.contract.ErrorBody;
import stackbench.contract.PrimeCounts;
import stackbench.contract.PrimesAnswer;

/** The resources' logic without starting Quarkus: a plain method call is what the HTTP layer ends in. */
class ResourcesTest {

    // the counts the built-in apps answer (workloads' PrimesTest, the contract IT's 10000 -> 1229)
    @ParameterizedTest(name = "primes up to {0}: {1}")
    @CsvSource({"0,0", "2,1", "1000,168", "10000,1229", "100000,9592"})
    void primesAnswerTheBuiltInAppsCount(String limit, int count) {
        PrimesAnswer answer = PrimesResource.answer(limit);
        assertThat(answer).isEqualTo(new PrimesAnswer(Long.parseLong(limit), count));
        assertThat(answer.getPrimes()).isEqualTo(PrimeCounts.INSTANCE.upTo(Long.parseLong(limit)));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"ten", "-1", "10000001", "1.5"})
    void aMissingOrBadLimitIsA400NamingIt(String limit) {
        assertThatThrownBy(() -> PrimesResource.answer(limit))
                .isInstanceOfSatisfying(BadParameterException.class, e -> {
                    Response response = new BadParameterMapper().toResponse(e);
                    assertThat(response.getStatus()).isEqualTo(400);
                    ErrorBody body = (ErrorBody) response.getEntity();
                    assertThat(body.getParameter()).isEqualTo("limit");
                    assertThat(body.getValue()).isEqualTo(limit);
                    assertThat(body.getAllowed()).isEqualTo("0..10000000");
                });
    }

    @Test
    void ordersOneToAThousandExistAndAreTheSameEachTime() {
        Orders orders = new Orders();
        assertThat(orders.find(1)).contains(new Orders.Order(1, "book", 2));
        assertThat(orders.find(1000)).isEqualTo(new Orders().find(1000));
        assertThat(orders.find(1000)).isPresent();
        assertThat(orders.find(0)).isEmpty();
        assertThat(orders.find(1001)).isEmpty();
    }

    @Test
    void aCreatedOrderIsEchoedWithAFreshIdPastTheCatalogue() {
        Orders orders = new Orders();
        assertThat(orders.create(new Orders.NewOrder("x", 2))).contains(new Orders.Order(1001, "x", 2));
        assertThat(orders.create(new Orders.NewOrder("y", 1))).contains(new Orders.Order(1002, "y", 1));
        assertThat(orders.create(new Orders.NewOrder("", 2))).isEmpty();
        assertThat(orders.create(new Orders.NewOrder("x", 0))).isEmpty();
        assertThat(orders.create(new Orders.NewOrder("x", null))).isEmpty();
        assertThat(orders.create(null)).isEmpty();
    }

    @Test
    void theOrdersResourceAnswers200404201And400() {
        OrdersResource resource = new OrdersResource();
        assertThat(resource.find(7).getStatus()).isEqualTo(200);
        assertThat(resource.find(1001).getStatus()).isEqualTo(404);
        Response created = resource.create(new Orders.NewOrder("x", 2));
        assertThat(created.getStatus()).isEqualTo(201);
        assertThat(created.getLocation().toString()).isEqualTo("/orders/1001");
        assertThat(resource.create(new Orders.NewOrder(null, 2)).getStatus()).isEqualTo(400);
    }
}
