package dev.weft.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * jackson-databind: 200 orders (plain objects with public fields: numbers, text, a flag, an enum,
 * a nested address, a list of nested lines and a map of tags) written to one JSON text by an
 * {@link ObjectMapper} and read back into new objects. The mapper is made once, with the inputs.
 */
final class JacksonWork implements LibraryWork {

    private static final int ORDERS = 200;

    /** How far an order has gone. */
    public enum Status { OPEN, PAID, SHIPPED }

    /** Where an order goes. */
    public static final class Address {
        public String street;
        public String city;
        public int zip;

        @Override
        public boolean equals(Object o) {
            return o instanceof Address a && Objects.equals(street, a.street) && Objects.equals(city, a.city)
                    && zip == a.zip;
        }

        @Override
        public int hashCode() {
            return Objects.hash(street, city, zip);
        }
    }

    /** One line of an order. */
    public static final class Line {
        public String sku;
        public int quantity;
        public double price;

        @Override
        public boolean equals(Object o) {
            return o instanceof Line l && Objects.equals(sku, l.sku) && quantity == l.quantity && price == l.price;
        }

        @Override
        public int hashCode() {
            return Objects.hash(sku, quantity, price);
        }
    }

    /** The objects written and read. */
    public static final class Order {
        public long id;
        public String customer;
        public boolean gift;
        public Status status;
        public Address address;
        public List<Line> lines;
        public Map<String, String> tags;

        @Override
        public boolean equals(Object o) {
            return o instanceof Order x && id == x.id && Objects.equals(customer, x.customer) && gift == x.gift
                    && status == x.status && Objects.equals(address, x.address) && Objects.equals(lines, x.lines)
                    && Objects.equals(tags, x.tags);
        }

        @Override
        public int hashCode() {
            return Objects.hash(id, customer, gift, status, address, lines, tags);
        }
    }

    private final ObjectMapper mapper = new ObjectMapper();
    private final JavaType listOfOrders = mapper.getTypeFactory().constructCollectionType(List.class, Order.class);
    private final List<Order> orders = orders();

    private static List<Order> orders() {
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            Order order = new Order();
            order.id = 1_000_000L + i;
            order.customer = "customer \"" + i + "\"";
            order.gift = i % 3 == 0;
            order.status = Status.values()[i % Status.values().length];
            order.address = address(i);
            order.lines = lines(i);
            order.tags = Map.of("channel", i % 2 == 0 ? "web" : "shop", "region", "r" + i % 7);
            orders.add(order);
        }
        return orders;
    }

    private static Address address(int i) {
        Address address = new Address();
        address.street = i + " Long Street";
        address.city = "City " + (char) ('A' + i % 26);
        address.zip = 10_000 + i;
        return address;
    }

    private static List<Line> lines(int i) {
        List<Line> lines = new ArrayList<>();
        for (int l = 0; l < 1 + i % 4; l++) {
            Line line = new Line();
            line.sku = "SKU-" + i + "-" + l;
            line.quantity = 1 + l;
            line.price = 9.99 + i + l * 0.25;
            lines.add(line);
        }
        return lines;
    }

    @Override
    public Object run() {
        try {
            return mapper.readValue(mapper.writeValueAsString(orders), listOfOrders);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("200 orders to JSON and back", e);
        }
    }

    @Override
    public void check(Object result) {
        LibraryWork.expect("the orders read back", orders, result);
    }

    @Override
    public Class<?> libraryClass() {
        return ObjectMapper.class;
    }
}
