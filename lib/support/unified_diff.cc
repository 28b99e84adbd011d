#include "support/unified_diff.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace mslport {

namespace {

struct Lines {
  std::vector<std::string> text;  // without their '\n'
  bool last_has_newline = true;
};

Lines split_lines(const std::string& s) {
  Lines l;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string::npos) {
      l.text.push_back(s.substr(start));
      l.last_has_newline = false;
      break;
    }
    l.text.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return l;
}

enum class Op { Equal, Delete, Insert };

// Beyond this many differing lines the edit script is not searched for
// (Myers keeps O(D^2) state): the middle becomes delete-all, insert-all.
constexpr long kMaxEdits = 4000;

// Appends the shortest edit script turning a[a0, a1) into b[b0, b1),
// or false when it needs more than kMaxEdits edits.
bool myers(const std::vector<size_t>& a, size_t a0, size_t a1, const std::vector<size_t>& b, size_t b0, size_t b1,
           std::vector<Op>* ops) {
  const long n = long(a1 - a0), m = long(b1 - b0);
  const long max = std::min(n + m, kMaxEdits);
  const long off = max + 1;
  std::vector<long> v(size_t(2 * max + 3), 0);
  std::vector<std::vector<long>> trace;  // v after each round d, for -d..d
  long found = -1;
  for (long d = 0; d <= max && found < 0; ++d) {
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      long y = x - k;
      while (x < n && y < m && a[a0 + x] == b[b0 + y]) ++x, ++y;
      v[off + k] = x;
      if (x >= n && y >= m) found = d;
    }
    trace.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
  }
  if (found < 0) return false;
  // Walk back from (n, m), collecting the script in reverse.
  std::vector<Op> rev;
  long x = n, y = m;
  for (long d = found; d > 0; --d) {
    const std::vector<long>& pv = trace[size_t(d - 1)];  // indices -(d-1)..(d-1)
    auto at = [&](long k) { return pv[size_t(k + d - 1)]; };
    long k = x - y;
    bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
    long pk = down ? k + 1 : k - 1;
    long px = at(pk), py = px - pk;
    long sx = down ? px : px + 1;  // where the snake to (x, y) starts
    while (x > sx) rev.push_back(Op::Equal), --x, --y;
    rev.push_back(down ? Op::Insert : Op::Delete);
    x = px;
    y = py;
  }
  while (x > 0) rev.push_back(Op::Equal), --x;
  ops->insert(ops->end(), rev.rbegin(), rev.rend());
  return true;
}

std::string range(size_t start, size_t count) {
  // diff -u: "start,count", with start the line before an empty range.
  size_t first = count == 0 ? start : start + 1;
  return count == 1 ? std::to_string(first) : std::to_string(first) + "," + std::to_string(count);
}

}  // namespace

std::string unified_diff(const std::string& old_text, const std::string& new_text, const std::string& old_label,
                         const std::string& new_label, int context) {
  if (old_text == new_text) return "";
  Lines a = split_lines(old_text), b = split_lines(new_text);
  // Lines compare by content; the last one also by whether it ends the file
  // with a newline, so that adding one is a change diff(1) shows too.
  auto key = [&](const Lines& l, size_t i) {
    bool open_end = i + 1 == l.text.size() && !l.last_has_newline;
    return l.text[i] + (open_end ? std::string("\0x", 2) : std::string());
  };
  // Each distinct line gets a small id; the algorithm compares ids.
  std::unordered_map<std::string, size_t> ids;
  auto ids_of = [&](const Lines& l) {
    std::vector<size_t> out(l.text.size());
    for (size_t i = 0; i < l.text.size(); ++i) out[i] = ids.emplace(key(l, i), ids.size()).first->second;
    return out;
  };
  std::vector<size_t> ia = ids_of(a), ib = ids_of(b);
  size_t pre = 0;
  while (pre < ia.size() && pre < ib.size() && ia[pre] == ib[pre]) ++pre;
  size_t suf = 0;
  while (suf < ia.size() - pre && suf < ib.size() - pre && ia[ia.size() - 1 - suf] == ib[ib.size() - 1 - suf]) ++suf;
  std::vector<Op> ops(pre, Op::Equal);
  if (!myers(ia, pre, ia.size() - suf, ib, pre, ib.size() - suf, &ops)) {
    ops.insert(ops.end(), ia.size() - suf - pre, Op::Delete);
    ops.insert(ops.end(), ib.size() - suf - pre, Op::Insert);
  }
  ops.insert(ops.end(), suf, Op::Equal);

  // Hunks: runs of changes with up to `context` equal lines around them;
  // two changes closer than 2 * context share a hunk.
  std::string out = "--- " + old_label + "\n+++ " + new_label + "\n";
  const size_t ctx = size_t(std::max(context, 0));
  size_t i = 0;
  std::vector<size_t> ai(ops.size() + 1), bi(ops.size() + 1);  // line numbers before op i
  for (size_t k = 0; k < ops.size(); ++k) {
    ai[k + 1] = ai[k] + (ops[k] != Op::Insert);
    bi[k + 1] = bi[k] + (ops[k] != Op::Delete);
  }
  auto emit_line = [&](char tag, const Lines& l, size_t n) {
    out += tag;
    out += l.text[n];
    out += '\n';
    if (n + 1 == l.text.size() && !l.last_has_newline) out += "\\ No newline at end of file\n";
  };
  while (i < ops.size()) {
    if (ops[i] == Op::Equal) {
      ++i;
      continue;
    }
    size_t start = i >= ctx ? i - ctx : 0;
    size_t end = i;  // one past the last change of the hunk
    while (true) {
      while (end < ops.size() && ops[end] != Op::Equal) ++end;
      size_t next = end;
      while (next < ops.size() && ops[next] == Op::Equal) ++next;
      if (next < ops.size() && next - end <= 2 * ctx) {
        end = next;
        continue;
      }
      break;
    }
    size_t stop = std::min(ops.size(), end + ctx);
    out += "@@ -" + range(ai[start], ai[stop] - ai[start]) + " +" + range(bi[start], bi[stop] - bi[start]) + " @@\n";
    for (size_t k = start; k < stop; ++k) {
      if (ops[k] == Op::Equal) emit_line(' ', a, ai[k]);
      else if (ops[k] == Op::Delete) emit_line('-', a, ai[k]);
      else emit_line('+', b, bi[k]);
    }
    i = stop;
  }
  return out;
}

}  // namespace mslport
