// The text step several diagnose-and-mend steps share: wrapping operands,
// given as byte ranges of one file's text, in a call of the shim's,
//     x   =>   CALL(x)
// for the front end to parse again. A range given twice (a template's
// instances report the same operand) is wrapped once; one already wrapped
// in CALL, and one that overlaps the range before it, are left as they are
// (a later parse reports it again where it still fails).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace mslport::front {

struct OperandRange {
  unsigned begin = 0, end = 0;  // end exclusive
};

// Wraps each range of `text` in `call(...)` (call: "::metal::f<float>").
// Returns how many were wrapped.
size_t wrap_operands(std::string* text, std::vector<OperandRange> ranges, const std::string& call);

// The same with text made for each operand: `open(operand's text)` before
// it and `close` after; an operand whose text starts with `marker` is
// wrapped already.
size_t wrap_operands(std::string* text, std::vector<OperandRange> ranges, const std::string& marker,
                     const std::function<std::string(const std::string& operand)>& open, const std::string& close);

// An operand's text on one line, for a copy of it inside a wrap
// (`decltype(...)`): the lines after the wrap stay where they were.
std::string one_line(std::string operand);

// The edit itself: each range (sorted, none overlapping) becomes
// `open` + its text + `close`. Lines never move.
struct OperandWrap {
  unsigned begin = 0, end = 0;
  std::string open;  // "f(", "f<decltype(v)>("
  std::string close = ")";
};
void apply_wraps(std::string* text, const std::vector<OperandWrap>& wraps);

}  // namespace mslport::front
