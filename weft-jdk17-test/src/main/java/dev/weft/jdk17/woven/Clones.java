package dev.weft.jdk17.woven;

import dev.weft.AsymCoroutine;

import java.util.Arrays;

/**
 * Arrays copied by their {@code clone()} in a woven coroutine, one kind a call: each primitive
 * array, an array of strings held in a variable of type {@code Object[]}, a two-dimensional
 * array (a shallow copy), and a null array. JDK 17's lookups treat an array's {@code clone()} as
 * {@code Object}'s protected method, which a twin's call must not inherit.
 */
public final class Clones extends AsymCoroutine<Void, String> {

    @Override
    protected String run(Void ignored) {
        boolean[] flags = {true, false};
        byte[] bytes = {1, 2};
        char[] chars = {'a', 'b'};
        short[] shorts = {3, 4};
        ret(copied(flags.clone(), flags) + " " + copied(bytes.clone(), bytes) + " " + copied(chars.clone(), chars) + " "
                + copied(shorts.clone(), shorts));
        int[] ints = {5, 6};
        long[] longs = {7, 8};
        float[] floats = {0.5f};
        double[] doubles = {0.25};
        ret(copied(ints.clone(), ints) + " " + copied(longs.clone(), longs) + " " + copied(floats.clone(), floats) + " "
                + copied(doubles.clone(), doubles));
        Object[] names = new String[] {"x", "y"};
        Object[] copy = names.clone();
        ret(copy.getClass().getSimpleName() + " " + Arrays.toString(copy) + (copy != names ? " copied" : " same"));
        int[][] grid = {{1}, {2}};
        int[][] rows = grid.clone();
        ret(rows != grid && rows[0] == grid[0] ? "int[][] shallow" : "int[][] deep");
        int[] none = null;
        try {
            return "null: " + Arrays.toString(none.clone());
        } catch (NullPointerException e) {
            return "null: " + e.getClass().getSimpleName();
        }
    }

    private static String copied(Object copy, Object original) {
        return copy.getClass().getSimpleName() + (copy != original && Arrays.deepEquals(new Object[] {copy}, new Object[] {original})
                ? " copied" : " not copied");
    }
}
