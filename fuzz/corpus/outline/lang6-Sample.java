// Function-context fixture: Java. Each token that starts with needle marks one case of
// tests/integration/function_context.rs, which names lines by number.

package fixture;

import java.util.List;

/** A counter; needle_doc sits in this doc comment, outside the class. */
class Counter {
    private int count; // needle_field

    Counter(int start) {
        count = start; // needle_constructor
    }

    int needle_signature(int n) {
        return n * 2;
    }

    void bump() {
        count += 1; // needle_method
    }

    List<Integer> withLambda(List<Integer> items) {
        items.forEach(x -> System.out.println(x)); // needle_closure
        return items;
    }

    // Java has no nested functions; a class declared in a method has methods.
    Runnable local() {
        class Local implements Runnable {
            public void run() {
                System.out.println("needle_nested");
            }
        }
        return new Local();
    }
}

// needle_between: a comment between two definitions.

interface Shape {
    int sides(); // needle_interface
}

enum Colour { // needle_enum
    RED,
    GREEN
}

record Point(int x, int y) { // needle_record
}

@interface Marker { // needle_annotation
    String value();
}

class Long {
    // A definition over 50 lines: its signature, then 3 lines around each match.
    int longMethod() {
        int total = 0;
        total += 1;
        total += 2;
        total += 3;
        total += 4;
        total += 5;
        total += 6;
        total += 7;
        total += 8;
        total += 9;
        total += 10;
        total += 11;
        total += 12;
        total += 13;
        total += 14;
        total += 15;
        total += 16;
        total += 17;
        total += 18;
        total += 19;
        total += 20;
        total += 21;
        total += 22;
        total += 23;
        total += 24;
        total += 25;
        total += 26;
        total += 27;
        total += 28;
        total += 29;
        total += 30; // needle_long
        total += 31;
        total += 32;
        total += 33;
        total += 34;
        total += 35;
        total += 36;
        total += 37;
        total += 38;
        total += 39;
        total += 40;
        total += 41;
        total += 42;
        total += 43;
        total += 44;
        total += 45;
        total += 46;
        total += 47;
        total += 48;
        total += 49;
        total += 50; // needle_later
        total += 51;
        total += 52;
        total += 53;
        total += 54;
        total += 55;
        total += 56;
        total += 57;
        total += 58;
        total += 59;
        total += 60;
        return total;
    }

    // A syntax error (needle_in_long_class): tree-sitter parses on, the next method is whole.
    int broken() {
        int x = (1 + ;
        return x;
    }

    int intact() {
        return 2; // needle_intact
    }
}
