package dev.weft.weaver.analysis;

import java.util.List;
import org.objectweb.asm.Type;

/**
 * The {@link TypeInterpreter} that merges where control flow joins, as the JVM's old
 * type-inferencing verifier does for class files without stack-map frames (before version 50):
 * two different kinds merge to an unusable slot, null merges to the other reference, and two
 * references merge to their first common superclass, found in class files through a
 * {@link ClassHierarchy}. Interfaces count as {@code java/lang/Object}; arrays merge as JVMS
 * 4.10.2.2 and HotSpot's old verifier say. Where a superclass cannot be found, the merge is
 * {@code java/lang/Object} marked {@linkplain SlotType#unresolved() unresolved}: the verifier may
 * infer a more precise type there, so a frame holding it cannot be restored.
 */
final class InferringInterpreter extends TypeInterpreter {

    private static final String OBJECT = "java/lang/Object";
    private static final List<String> ARRAY_INTERFACES = List.of("java/lang/Cloneable", "java/io/Serializable");

    private final ClassHierarchy hierarchy;

    InferringInterpreter(ClassHierarchy hierarchy) {
        this.hierarchy = hierarchy;
    }

    @Override
    public SlotType merge(SlotType value1, SlotType value2) {
        if (value1.equals(value2)) {
            return value1;
        }
        if (!value1.isReference() || !value2.isReference()) {
            return SlotType.TOP;
        }
        if (value1.kind() == SlotType.Kind.NULL) {
            return value2;
        }
        if (value2.kind() == SlotType.Kind.NULL) {
            return value1;
        }
        SlotType merged = mergeReferences(Type.getType(value1.descriptor()), Type.getType(value2.descriptor()));
        String unresolved = value1.unresolved() != null ? value1.unresolved() : value2.unresolved();
        return unresolved == null || merged.unresolved() != null ? merged : SlotType.guessed(merged.descriptor(), unresolved);
    }

    /** Two different reference types, merged. */
    private SlotType mergeReferences(Type type1, Type type2) {
        if (isObject(type1) || isObject(type2)) {
            return object();
        }
        if (type1.getSort() != Type.ARRAY && type2.getSort() != Type.ARRAY) {
            return commonSuperclass(type1.getInternalName(), type2.getInternalName());
        }
        if (isArrayInterface(type1)) {
            return SlotType.reference(type1.getDescriptor());
        }
        if (isArrayInterface(type2)) {
            return SlotType.reference(type2.getDescriptor());
        }
        return mergeArrays(objectArray(type1), objectArray(type2));
    }

    /**
     * Two reference types of which one at least is an array, each with primitive elements
     * already turned into {@code Object} one dimension lower: same dimensions merge their element
     * classes; different ones give the shallower type if its element is {@code Cloneable} or
     * {@code Serializable}, else an {@code Object} array of its dimensions.
     */
    private SlotType mergeArrays(Type type1, Type type2) {
        int dimensions1 = dimensions(type1);
        int dimensions2 = dimensions(type2);
        Type element1 = dimensions1 == 0 ? type1 : type1.getElementType();
        Type element2 = dimensions2 == 0 ? type2 : type2.getElementType();
        if (dimensions1 == dimensions2) {
            SlotType element = element1.equals(element2) ? SlotType.reference(element1.getDescriptor())
                    : mergeReferences(element1, element2);
            return withDimensions(element, dimensions1);
        }
        Type shallower = dimensions1 < dimensions2 ? type1 : type2;
        Type shallowerElement = dimensions1 < dimensions2 ? element1 : element2;
        if (ARRAY_INTERFACES.contains(shallowerElement.getInternalName())) {
            return SlotType.reference(shallower.getDescriptor());
        }
        return withDimensions(object(), Math.min(dimensions1, dimensions2));
    }

    /** {@code type} with a primitive element type replaced by {@code Object} one dimension lower ({@code int[][]} to {@code Object[]}). */
    private static Type objectArray(Type type) {
        if (type.getSort() != Type.ARRAY || type.getElementType().getSort() == Type.OBJECT) {
            return type;
        }
        return Type.getType("[".repeat(type.getDimensions() - 1) + "Ljava/lang/Object;");
    }

    private static int dimensions(Type type) {
        return type.getSort() == Type.ARRAY ? type.getDimensions() : 0;
    }

    private static SlotType withDimensions(SlotType element, int dimensions) {
        String descriptor = "[".repeat(dimensions) + element.descriptor();
        return element.unresolved() == null ? SlotType.reference(descriptor) : SlotType.guessed(descriptor, element.unresolved());
    }

    /** The first common superclass of two different classes, interfaces counting as {@code Object}. */
    private SlotType commonSuperclass(String class1, String class2) {
        for (String name : List.of(class1, class2)) {
            Boolean isInterface = hierarchy.isInterface(name);
            if (isInterface == null) {
                return SlotType.guessed("L" + OBJECT + ";", name);
            }
            if (isInterface) {
                return object();
            }
        }
        List<String> chain1 = hierarchy.superclasses(class1);
        List<String> chain2 = hierarchy.superclasses(class2);
        for (String candidate : chain2) {
            if (chain1.contains(candidate)) {
                return SlotType.ofInternalName(candidate);
            }
        }
        String unresolved = ClassHierarchy.isComplete(chain1) ? chain2.get(chain2.size() - 1) : chain1.get(chain1.size() - 1);
        return SlotType.guessed("L" + OBJECT + ";", unresolved);
    }

    private static boolean isObject(Type type) {
        return type.getSort() == Type.OBJECT && type.getInternalName().equals(OBJECT);
    }

    private static boolean isArrayInterface(Type type) {
        return type.getSort() == Type.OBJECT && ARRAY_INTERFACES.contains(type.getInternalName());
    }

    private static SlotType object() {
        return SlotType.ofInternalName(OBJECT);
    }
}
