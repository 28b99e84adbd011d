#include "front/operand_wrapping.h"

#include <algorithm>
#include <tuple>

namespace mslport::front {

size_t wrap_operands(std::string* text, std::vector<OperandRange> ranges, const std::string& call,
                     const std::string& after) {
  std::string& t = *text;
  std::sort(ranges.begin(), ranges.end(), [](const OperandRange& a, const OperandRange& b) {
    return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
  });
  const std::string open = call + "(";
  std::vector<OperandRange> edits;
  for (const auto& r : ranges) {
    if (r.end > t.size() || r.begin >= r.end) continue;
    if (!edits.empty() && edits.back().begin == r.begin && edits.back().end == r.end) continue;
    if (!edits.empty() && r.begin < edits.back().end) continue;  // overlaps: a later round
    if (t.compare(r.begin, open.size(), open) == 0) continue;
    edits.push_back(r);
  }
  std::vector<OperandWrap> wraps;
  for (const auto& e : edits) wraps.push_back({e.begin, e.end, open, ")" + after});
  apply_wraps(text, wraps);
  return wraps.size();
}

void apply_wraps(std::string* text, const std::vector<OperandWrap>& wraps) {
  if (wraps.empty()) return;
  const std::string& t = *text;
  std::string out;
  size_t from = 0;
  for (const auto& w : wraps) {
    out.append(t, from, w.begin - from);
    out += w.open;
    out.append(t, w.begin, w.end - w.begin);
    out += w.close;
    from = w.end;
  }
  out.append(t, from, std::string::npos);
  *text = std::move(out);
}

}  // namespace mslport::front
