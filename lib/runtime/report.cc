#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runtime/runner.h"

namespace mslport::runtime {

namespace {

struct Counts {
  size_t passed = 0, failed = 0, errors = 0, not_covered = 0;
};

Counts count(const std::vector<CaseResult>& results) {
  Counts c;
  for (const auto& r : results) {
    if (r.status == "pass") ++c.passed;
    else if (r.status == "fail") ++c.failed;
    else if (r.status == "not_covered") ++c.not_covered;
    else ++c.errors;
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
                  " [" + f.kernel + " / " + f.case_name +
                  (f.cases > 1 ? " and " + std::to_string(f.cases - 1) + " more" : "") + "]\n";
  if (!f.note_file.empty())
    s +=
        f.note_file + ":" + std::to_string(f.note_line) + ":" + std::to_string(f.note_col) + ": note: " + f.note + "\n";
  return s;
}

namespace {

using nlohmann::json;

json num_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

// A value as mismatch text holds it: a number when it is one.
json value_json(const std::string& text) {
  if (text.empty()) return nullptr;
  char c = text[0];
  if ((c >= '0' && c <= '9') || ((c == '-' || c == '+') && text.size() > 1 && text[1] >= '0' && text[1] <= '9')) {
    json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_number()) return j;
  }
  return text;
}

json failure_json(const BufferFailure& f) {
  json first_index = json::array(), got = json::array(), expected = json::array();
  for (size_t i = 0; i < f.first_index.size(); ++i) {
    first_index.push_back(f.first_index[i]);
    got.push_back(value_json(i < f.first_got.size() ? f.first_got[i] : ""));
    expected.push_back(value_json(i < f.first_expected.size() ? f.first_expected[i] : ""));
  }
  const bool tol = f.compare == "tolerance";
  return {{"buffer", f.buffer},
          {"index", f.index},
          {"kind", f.kind},
          {"count", f.count},
          {"elements", f.elements},
          {"compare", f.compare.empty() ? json(nullptr) : json(f.compare)},
          {"atol", tol ? json(f.atol) : json(nullptr)},
          {"rtol", tol ? json(f.rtol) : json(nullptr)},
          {"first", {{"index", first_index}, {"got", got}, {"expected", expected}}}};
}

}  // namespace

std::string format_json(const std::vector<CaseResult>& results, const std::vector<Finding>* findings,
                        const ReportContext* ctx) {
  json arr = json::array();
  for (const auto& r : results) {
    const bool compared = r.status == "pass" || r.status == "fail";
    json j = {{"kernel", r.kernel},
              {"case", r.case_name},
              {"target", r.target},
              {"status", r.status},
              {"max_abs_err", compared ? num_or_null(r.max_abs_err) : json(nullptr)},
              {"max_rel_err", compared ? num_or_null(r.max_rel_err) : json(nullptr)},
              {"time_s", r.seconds >= 0 ? json(r.seconds) : json(nullptr)}};
    if (!r.message.empty()) j["message"] = r.message;
    json failures = json::array();
    for (const auto& f : r.failures) failures.push_back(failure_json(f));
    j["failures"] = std::move(failures);
    arr.push_back(std::move(j));
  }
  Counts c = count(results);
  json out;
  if (ctx) {
    out["tool"] = {{"name", ctx->tool}, {"version", ctx->version}};
    out["golden"] = ctx->golden_dir;
    out["compiler"] =
        ctx->compiler.empty() ? json(nullptr) : json{{"command", ctx->compiler}, {"flags", ctx->compiler_flags}};
    json devices = json::array();
    for (const auto& [target, device] : ctx->devices) devices.push_back({{"target", target}, {"device", device}});
    out["devices"] = std::move(devices);
    json kernels = json::array();
    for (const auto& [name, source] : ctx->kernels) {
      auto it = ctx->case_counts.find(name);
      kernels.push_back({{"name", name}, {"source", source}, {"cases", it == ctx->case_counts.end() ? 0 : it->second}});
    }
    out["kernels"] = std::move(kernels);
  }
  out["results"] = std::move(arr);
  out["summary"] = {{"passed", c.passed},
                    {"failed", c.failed},
                    {"errors", c.errors},
                    {"not_covered", c.not_covered},
                    {"findings", findings ? json(findings->size()) : json(nullptr)}};
  if (ctx) {
    auto t = [](double v) { return v >= 0 ? json(v) : json(nullptr); };
    out["timings_s"] = {{"translate", t(ctx->translate_seconds)},
                        {"build", t(ctx->build_seconds)},
                        {"run", t(ctx->run_seconds)},
                        {"total", t(ctx->total_seconds)}};
  }
  json fs = json::array();
  if (findings) {
    for (const auto& f : *findings) {
      json j = {{"kind", f.kind},       {"file", f.file},     {"line", f.line},      {"col", f.col},
                {"message", f.message}, {"kernel", f.kernel}, {"case", f.case_name}, {"cases", f.cases}};
      if (!f.note_file.empty())
        j["note"] = {{"file", f.note_file}, {"line", f.note_line}, {"col", f.note_col}, {"message", f.note}};
      fs.push_back(std::move(j));
    }
  }
  out["findings"] = std::move(fs);
  return out.dump(2) + "\n";
}

namespace {

// XML 1.0 text: the five entities, and characters XML cannot hold (control
// characters other than tab and newlines) as '?'.
std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') out += '?';
        else out += static_cast<char>(ch);
    }
  }
  return out;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
  return buf;
}

}  // namespace

std::string format_junit(const std::vector<CaseResult>& results, const std::vector<Finding>* findings,
                         const ReportContext& ctx) {
  // One suite per target, in the order the targets first appear.
  std::vector<std::string> targets;
  for (const auto& r : results)
    if (std::find(targets.begin(), targets.end(), r.target) == targets.end()) targets.push_back(r.target);
  Counts all = count(results);
  size_t finding_count = findings ? findings->size() : 0;
  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<testsuites name=\"" << xml_escape(ctx.tool + " check") << "\" tests=\"" << results.size() + (findings ? 1 : 0)
     << "\" failures=\"" << all.failed + (finding_count ? 1 : 0) << "\" errors=\"" << all.errors << "\" skipped=\""
     << all.not_covered << "\" time=\"" << seconds_text(ctx.total_seconds) << "\">\n";
  for (const auto& target : targets) {
    std::vector<const CaseResult*> mine;
    double time = 0;
    for (const auto& r : results)
      if (r.target == target) {
        mine.push_back(&r);
        time += r.seconds > 0 ? r.seconds : 0;
      }
    size_t failed = 0, errors = 0, skipped = 0;
    for (auto* r : mine) {
      failed += r->status == "fail";
      skipped += r->status == "not_covered";
      errors += r->status != "fail" && r->status != "pass" && r->status != "not_covered";
    }
    os << "  <testsuite name=\"" << xml_escape(target) << "\" tests=\"" << mine.size() << "\" failures=\"" << failed
       << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << seconds_text(time) << "\">\n";
    os << "    <properties>\n";
    os << "      <property name=\"mslport.version\" value=\"" << xml_escape(ctx.version) << "\"/>\n";
    os << "      <property name=\"golden\" value=\"" << xml_escape(ctx.golden_dir) << "\"/>\n";
    if (target.find("openmp") != std::string::npos && !ctx.compiler.empty()) {
      std::string flags;
      for (const auto& f : ctx.compiler_flags) flags += (flags.empty() ? "" : " ") + f;
      os << "      <property name=\"compiler\" value=\"" << xml_escape(ctx.compiler + " " + flags) << "\"/>\n";
    }
    for (const auto& [t, device] : ctx.devices)
      if (target.find(t) != std::string::npos)
        os << "      <property name=\"device\" value=\"" << xml_escape(device) << "\"/>\n";
    os << "    </properties>\n";
    for (auto* r : mine) {
      os << "    <testcase classname=\"" << xml_escape(r->kernel) << "\" name=\"" << xml_escape(r->case_name)
         << "\" time=\"" << seconds_text(r->seconds) << "\"";
      if (r->status == "pass") {
        os << "/>\n";
        continue;
      }
      os << ">\n";
      std::string first_line = r->message.substr(0, r->message.find('\n'));
      if (r->status == "fail")
        os << "      <failure message=\"" << xml_escape(first_line) << "\" type=\""
           << xml_escape(r->failures.empty() ? "fail" : r->failures.front().kind) << "\">" << xml_escape(r->message)
           << "</failure>\n";
      else if (r->status == "not_covered") os << "      <skipped message=\"" << xml_escape(first_line) << "\"/>\n";
      else
        os << "      <error message=\"" << xml_escape(first_line) << "\" type=\"" << xml_escape(r->status) << "\">"
           << xml_escape(r->message) << "</error>\n";
      os << "    </testcase>\n";
    }
    os << "  </testsuite>\n";
  }
  if (findings) {
    os << "  <testsuite name=\"sanitizer\" tests=\"1\" failures=\"" << (finding_count ? 1 : 0)
       << "\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n";
    os << "    <testcase classname=\"sanitizer\" name=\"findings\" time=\"0.000\"";
    if (!finding_count) {
      os << "/>\n";
    } else {
      std::string text;
      for (const auto& f : *findings) text += format_finding(f);
      os << ">\n      <failure message=\"" << finding_count << " sanitizer findings\" type=\"findings\">"
         << xml_escape(text) << "</failure>\n    </testcase>\n";
    }
    os << "  </testsuite>\n";
  }
  os << "</testsuites>\n";
  return os.str();
}

}  // namespace mslport::runtime
