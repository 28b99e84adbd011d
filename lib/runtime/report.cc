#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "runtime/runner.h"

namespace mslport::runtime {

namespace {

struct Counts {
  size_t passed = 0, failed = 0, errors = 0, not_covered = 0;
};

Counts count(const std::vector<CaseResult>& results) {
  Counts c;
  for (const auto& r : results) {
    if (r.status == "pass")
      ++c.passed;
    else if (r.status == "fail")
      ++c.failed;
    else if (r.status == "not_covered")
      ++c.not_covered;
    else
      ++c.errors;
  }
  return c;
}

std::string fmt_err(const CaseResult& r, double v) {
  if (r.status != "pass" && r.status != "fail") return "-";
  if (std::isinf(v)) return "inf";
  if (std::isnan(v)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

std::string format_table(const std::vector<CaseResult>& results) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"kernel", "case", "target", "status", "max_abs_err", "max_rel_err"});
  for (const auto& r : results)
    rows.push_back({r.kernel, r.case_name, r.target, r.status, fmt_err(r, r.max_abs_err), fmt_err(r, r.max_rel_err)});
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::ostringstream os;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    os << line << "\n";
  }
  // Why each non-passing result did not pass (not_covered is self-explanatory).
  bool header = false;
  for (const auto& r : results) {
    if (r.status == "pass" || r.status == "not_covered" || r.message.empty()) continue;
    if (!header) {
      os << "\n";
      header = true;
    }
    os << r.status << ": " << r.kernel << " / " << r.case_name << " [" << r.target << "]:";
    std::istringstream ms(r.message);
    std::string line;
    bool first = true;
    while (std::getline(ms, line)) {
      os << (first ? " " : "\n    ") << line;
      first = false;
    }
    os << "\n";
  }
  Counts c = count(results);
  if (c.errors || c.not_covered) os << c.errors << " errors, " << c.not_covered << " not covered\n";
  os << c.passed << " passed, " << c.failed << " failed\n";
  return os.str();
}

std::string format_finding(const Finding& f) {
  std::string s = f.file + ":" + std::to_string(f.line) + ":" + std::to_string(f.col) + ": warning: " + f.message +
                  " [" + f.kernel + " / " + f.case_name + (f.cases > 1 ? " and " + std::to_string(f.cases - 1) + " more" : "") +
                  "]\n";
  if (!f.note_file.empty())
    s += f.note_file + ":" + std::to_string(f.note_line) + ":" + std::to_string(f.note_col) + ": note: " + f.note + "\n";
  return s;
}

std::string format_json(const std::vector<CaseResult>& results, const std::vector<Finding>* findings) {
  using nlohmann::json;
  json arr = json::array();
  auto num = [](double v) -> json { return std::isfinite(v) ? json(v) : json(nullptr); };
  for (const auto& r : results) {
    json j = {{"kernel", r.kernel},
              {"case", r.case_name},
              {"target", r.target},
              {"status", r.status},
              {"max_abs_err", num(r.max_abs_err)},
              {"max_rel_err", num(r.max_rel_err)}};
    if (!r.message.empty()) j["message"] = r.message;
    arr.push_back(std::move(j));
  }
  Counts c = count(results);
  json out = {{"results", std::move(arr)},
              {"summary",
               {{"passed", c.passed}, {"failed", c.failed}, {"errors", c.errors}, {"not_covered", c.not_covered}}}};
  if (findings) {
    json fs = json::array();
    for (const auto& f : *findings) {
      json j = {{"kind", f.kind},       {"file", f.file},   {"line", f.line},
                {"col", f.col},         {"message", f.message}, {"kernel", f.kernel},
                {"case", f.case_name},  {"cases", f.cases}};
      if (!f.note_file.empty())
        j["note"] = {{"file", f.note_file}, {"line", f.note_line}, {"col", f.note_col}, {"message", f.note}};
      fs.push_back(std::move(j));
    }
    out["findings"] = std::move(fs);
  }
  return out.dump(2) + "\n";
}

}  // namespace mslport::runtime
