package dev.weft.bench;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Lists;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * guava's immutable collections over 200 numbers: a list copied and one built, a set and a map
 * built, a multimap of the numbers by their last digit, then read back: the list iterated, the
 * set and the map looked up, the multimap's groups counted, the list transformed
 * ({@link Lists#transform}). The operation sums what it read.
 */
final class GuavaWork implements LibraryWork {

    private static final int SIZE = 200;

    private final List<Integer> numbers = new ArrayList<>();
    private final String[] keys = new String[SIZE];

    GuavaWork() {
        for (int i = 0; i < SIZE; i++) {
            numbers.add((i * 7919) % 1000);
            keys[i] = "key" + i;
        }
    }

    @Override
    public Object run() {
        ImmutableList<Integer> copy = ImmutableList.copyOf(numbers);
        ImmutableList.Builder<Integer> doubled = ImmutableList.builder();
        ImmutableSet.Builder<Integer> residues = ImmutableSet.builder();
        ImmutableMap.Builder<String, Integer> byKey = ImmutableMap.builder();
        ImmutableListMultimap.Builder<Integer, Integer> byDigit = ImmutableListMultimap.builder();
        for (int i = 0; i < copy.size(); i++) {
            int n = copy.get(i);
            doubled.add(n * 2);
            residues.add(n % 50);
            byKey.put(keys[i], n);
            byDigit.put(n % 10, n);
        }
        return read(copy, doubled.build(), residues.build(), byKey.buildOrThrow(), byDigit.build());
    }

    private long read(ImmutableList<Integer> copy, ImmutableList<Integer> doubled, ImmutableSet<Integer> residues,
            ImmutableMap<String, Integer> byKey, ImmutableListMultimap<Integer, Integer> byDigit) {
        long sum = 0;
        for (int n : doubled) {
            sum += n;
        }
        for (int n : copy) {
            sum += residues.contains(n % 100) ? 1 : 0;
        }
        for (String key : keys) {
            sum += byKey.get(key);
        }
        for (int digit = 0; digit < 10; digit++) {
            sum += (long) digit * byDigit.get(digit).size();
        }
        for (int n : Lists.transform(copy, n -> n + 1)) {
            sum += n;
        }
        return sum + residues.size() * 1_000_000L;
    }

    @Override
    public void check(Object result) {
        Set<Integer> residues = new HashSet<>();
        Map<Integer, Integer> perDigit = new HashMap<>();
        long sum = 0;
        for (int n : numbers) {
            residues.add(n % 50);
            perDigit.merge(n % 10, 1, Integer::sum);
            sum += n * 2 + n + n + 1;
        }
        for (int n : numbers) {
            sum += residues.contains(n % 100) ? 1 : 0;
        }
        for (Map.Entry<Integer, Integer> digit : perDigit.entrySet()) {
            sum += (long) digit.getKey() * digit.getValue();
        }
        LibraryWork.expect("guava's sum", sum + residues.size() * 1_000_000L, result);
    }

    @Override
    public Class<?> libraryClass() {
        return ImmutableList.class;
    }
}
