/* Function-context fixture: C. Each token that starts with needle marks one case of
 * tests/integration/function_context.rs, which names lines by number.
 * C has no methods, no nested functions and no closures. */

#include <stdio.h>

/** Adds one; needle_doc sits in this doc comment, outside the function. */
int add_one(int n) {
    return n + 1;
}

int needle_signature(int n) {
    return n * 2;
}

/* needle_between: a comment between two definitions. */

/* The nearest thing to a method: a function pointer in a struct. */
struct counter {
    int count; /* needle_field */
    void (*bump)(struct counter *self);
};

static void counter_bump(struct counter *self) {
    self->count += 1; /* needle_method */
}

static const char *colour_name(int c) {
    return c ? "red" : "green"; /* needle_pointer */
}

union number {
    int i; /* needle_union */
    float f;
};

enum colour {
    RED, /* needle_enum */
    GREEN
};

/* A definition over 50 lines: its signature, then 3 lines around each match. */
int long_function(void) {
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
    total += 30; /* needle_long */
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
    total += 50; /* needle_later */
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

/* A syntax error: tree-sitter parses on, the next function is whole. */
int broken(void) {
    int x = (1 + ;
    return x;
}

int intact(void) {
    return 2; /* needle_intact */
}
