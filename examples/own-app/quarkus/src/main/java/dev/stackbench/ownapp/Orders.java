package dev.stackbench.ownapp;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A catalogue with no database: orders 1..{@value #EXISTING} exist and are computed from their id, so every
 * instance answers the same and a load test needs no warm-up data. Created orders are echoed, not kept, so a long
 * POST run does not grow the heap.
 */
public final class Orders {
    public static final long EXISTING = 1000;
    static final List<String> ITEMS = List.of("book", "lamp", "chair", "mug", "pen", "desk", "plant");

    public record Order(long id, String item, int quantity) {}

    /** The body of {@code POST /orders}; an Integer so that a missing quantity is told apart from 0. */
    public record NewOrder(String item, Integer quantity) {}

    private final AtomicLong nextId = new AtomicLong(EXISTING + 1);

    public Optional<Order> find(long id) {
        if (id < 1 || id > EXISTING) return Optional.empty();
        return Optional.of(new Order(id, ITEMS.get((int) ((id - 1) % ITEMS.size())), (int) (id % 9) + 1));
    }

    /** The new order with a fresh id, or empty when the body lacks an item or a positive quantity. */
    public Optional<Order> create(NewOrder body) {
        if (body == null || body.item() == null || body.item().isBlank()) return Optional.empty();
        if (body.quantity() == null || body.quantity() < 1) return Optional.empty();
        return Optional.of(new Order(nextId.getAndIncrement(), body.item(), body.quantity()));
    }
}
