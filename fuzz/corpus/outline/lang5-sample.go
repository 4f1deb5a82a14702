// Function-context fixture: Go. Each token that starts with needle marks one case of
// tests/integration/function_context.rs, which names lines by number.

package fixture

import "sort"

// AddOne adds one; needle_doc sits in this doc comment, outside the function.
func AddOne(n int) int {
	return n + 1
}

func needle_signature(n int) int {
	return n * 2
}

// needle_between: a comment between two definitions.

type Counter struct {
	count int // needle_field
}

func (c *Counter) Bump() {
	c.count++ // needle_method
}

// Go has no nested named functions: a function literal is a closure, even
// when a variable holds it.
func Outer() int {
	inner := func() int {
		return 7 // needle_nested
	}
	return inner() + 1
}

func WithClosure(items []int) {
	sort.Slice(items, func(i, j int) bool {
		return items[i] < items[j] // needle_closure
	})
}

type Shape interface {
	Sides() int // needle_interface
}

// A definition over 50 lines: its signature, then 3 lines around each match.
func LongFunction() int {
	total := 0
	total += 1
	total += 2
	total += 3
	total += 4
	total += 5
	total += 6
	total += 7
	total += 8
	total += 9
	total += 10
	total += 11
	total += 12
	total += 13
	total += 14
	total += 15
	total += 16
	total += 17
	total += 18
	total += 19
	total += 20
	total += 21
	total += 22
	total += 23
	total += 24
	total += 25
	total += 26
	total += 27
	total += 28
	total += 29
	total += 30 // needle_long
	total += 31
	total += 32
	total += 33
	total += 34
	total += 35
	total += 36
	total += 37
	total += 38
	total += 39
	total += 40
	total += 41
	total += 42
	total += 43
	total += 44
	total += 45
	total += 46
	total += 47
	total += 48
	total += 49
	total += 50 // needle_later
	total += 51
	total += 52
	total += 53
	total += 54
	total += 55
	total += 56
	total += 57
	total += 58
	total += 59
	total += 60
	return total
}

// A syntax error: tree-sitter parses on, the next function is whole.
func Broken() int {
	x := (1 + )
	return x
}

func Intact() int {
	return 2 // needle_intact
}
