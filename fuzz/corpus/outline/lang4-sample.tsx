// Function-context fixture: TSX. Each token that starts with needle marks one case of
// tests/integration/function_context.rs, which names lines by number.

import * as React from "react";

/** A label; needle_doc sits in this doc comment, outside the function. */
export function Label({ text }: { text: string }) {
  return <span>{text}</span>;
}

export function needle_signature({ n }: { n: number }) {
  return <b>{n * 2}</b>;
}

// needle_between: a comment between two definitions.

export class Counter extends React.Component<{}, { count: number }> {
  state = { count: 0 }; // needle_field

  render() {
    return <p>{this.state.count}</p>; // needle_method
  }
}

export function Outer() {
  function Inner() {
    return <i>needle_nested</i>;
  }
  return <Inner />; // needle_outer
}

export function Clicker() {
  return (
    <button onClick={() => alert("needle_closure")}>click</button>
  );
}

export const Arrow = ({ n }: { n: number }) => {
  return <em>{n}</em>; // needle_arrow
};

interface Props {
  label: string; // needle_interface
}

// A definition over 50 lines: its signature, then 3 lines around each match.
export function LongList() {
  let total = 0;
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
  return <ul>{total}</ul>;
}

// A syntax error: tree-sitter parses on, the next function is whole.
export function Broken() {
  let x = (1 + ;
  return <div>{x}</div>;
}

export function Intact() {
  return <div>needle_intact</div>;
}
