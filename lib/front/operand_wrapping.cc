#include "front/operand_wrapping.h"

#include <algorithm>
#include <tuple>

namespace mslport::front {

size_t wrap_operands(std::string* text, std::vector<OperandRange> ranges, const std::string& marker,
                     const std::function<std::string(const std::string& operand)>& open, const std::string& close) {
  const std::string& t = *text;
  std::sort(ranges.begin(), ranges.end(), [](const OperandRange& a, const OperandRange& b) {
    return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
  });
  std::vector<OperandWrap> wraps;
  for (const auto& r : ranges) {
    if (r.end > t.size() || r.begin >= r.end) continue;
    if (!wraps.empty() && r.begin < wraps.back().end) continue;  // the same range again, or overlapping: a later round
    if (t.compare(r.begin, marker.size(), marker) == 0) continue;
    wraps.push_back({r.begin, r.end, open(t.substr(r.begin, r.end - r.begin)), close});
  }
  apply_wraps(text, wraps);
  return wraps.size();
}

size_t wrap_operands(std::string* text, std::vector<OperandRange> ranges, const std::string& call) {
  const std::string open = call + "(";
  return wrap_operands(
      text, std::move(ranges), open, [&](const std::string&) { return open; }, ")");
}

std::string one_line(std::string operand) {
  std::replace(operand.begin(), operand.end(), '\n', ' ');
  std::replace(operand.begin(), operand.end(), '\r', ' ');
  return operand;
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
