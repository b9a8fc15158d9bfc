package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.lang3.StringUtils;
import org.apache.commons.lang3.builder.EqualsBuilder;
import org.apache.commons.lang3.builder.HashCodeBuilder;
import org.apache.commons.lang3.builder.ToStringBuilder;
import org.apache.commons.lang3.builder.ToStringStyle;

/**
 * commons-lang3's string utilities and builders over 64 items: each item's comma-separated text
 * split, joined, replaced in, abbreviated; its name capitalized, its id padded; a
 * {@link ToStringBuilder}, an {@link EqualsBuilder} against the next item and a
 * {@link HashCodeBuilder} of it. The operation sums the results' lengths and hashes.
 */
final class CommonsLang3Work implements LibraryWork {

    private static final int ITEMS = 64;
    private static final int ABBREVIATED_WIDTH = 24;

    /** One input: an id, a lower-case name, and a comma-separated text of 3 to 6 words. */
    record Item(int id, String name, String csv) {
    }

    private final List<Item> items = items();

    private static List<Item> items() {
        String[] words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            StringBuilder csv = new StringBuilder(words[i % words.length]);
            for (int w = 1; w < 3 + i % 4; w++) {
                csv.append(',').append(words[(i + w * 3) % words.length]);
            }
            items.add(new Item(i * 37, words[(i * 5) % words.length] + i, csv.toString()));
        }
        return items;
    }

    @Override
    public Object run() {
        long sum = 0;
        for (int i = 0; i < items.size(); i++) {
            sum += withLang3(items.get(i), items.get((i + 1) % items.size()));
        }
        return sum;
    }

    private static long withLang3(Item item, Item next) {
        String[] parts = StringUtils.split(item.csv(), ',');
        String joined = StringUtils.join(parts, '|');
        String replaced = StringUtils.replace(joined, "a", "A");
        String abbreviated = StringUtils.abbreviate(replaced, ABBREVIATED_WIDTH);
        String name = StringUtils.capitalize(item.name());
        String padded = StringUtils.leftPad(String.valueOf(item.id()), 6, '0');
        String text = new ToStringBuilder(item, ToStringStyle.SHORT_PREFIX_STYLE).append("id", item.id())
                .append("name", name).toString();
        boolean equal = new EqualsBuilder().append(item.id(), next.id()).append(item.name(), next.name()).isEquals();
        int hash = new HashCodeBuilder(17, 37).append(item.id()).append(item.name()).toHashCode();
        return parts.length + joined.length() + replaced.hashCode() + abbreviated.hashCode() + name.hashCode()
                + padded.hashCode() + text.hashCode() + (equal ? 1 : 0) + hash;
    }

    /** The same sum with the JDK's own string methods, and the builders' documented formats and formula. */
    private static long withJdk(Item item, Item next) {
        String[] parts = item.csv().split(",");
        String joined = String.join("|", parts);
        String replaced = joined.replace("a", "A");
        String abbreviated = replaced.length() <= ABBREVIATED_WIDTH ? replaced
                : replaced.substring(0, ABBREVIATED_WIDTH - 3) + "...";
        String name = Character.toTitleCase(item.name().charAt(0)) + item.name().substring(1);
        String padded = String.format("%06d", item.id());
        String text = "CommonsLang3Work.Item[id=" + item.id() + ",name=" + name + "]";
        boolean equal = item.id() == next.id() && item.name().equals(next.name());
        int hash = (17 * 37 + item.id()) * 37 + item.name().hashCode();
        return parts.length + joined.length() + replaced.hashCode() + abbreviated.hashCode() + name.hashCode()
                + padded.hashCode() + text.hashCode() + (equal ? 1 : 0) + hash;
    }

    @Override
    public void check(Object result) {
        long expected = 0;
        for (int i = 0; i < items.size(); i++) {
            expected += withJdk(items.get(i), items.get((i + 1) % items.size()));
        }
        LibraryWork.expect("commons-lang3's sum", expected, result);
    }

    @Override
    public Class<?> libraryClass() {
        return StringUtils.class;
    }
}
