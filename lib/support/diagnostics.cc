#include "support/diagnostics.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace mslport {

void DiagEngine::report(Severity s, ir::SourceLoc loc, std::string message) {
  if (s == Severity::Error) ++error_count_;
  diags_.push_back(Diagnostic{s, std::move(loc), std::move(message)});
}

namespace {

// The process's diagnostic style and, in JSON and SARIF, what was emitted.
struct Sink {
  std::mutex mu;
  DiagStyle style;
  std::vector<Diagnostic> kept;
  std::map<std::string, std::string> texts;  // register_source_text
};

Sink& sink() {
  static Sink* s = new Sink;  // never destroyed: emitted from anywhere until exit
  return *s;
}

std::string source_line(const std::string& file, int line) {
  {
    Sink& s = sink();
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.texts.find(file);
    if (it != s.texts.end()) {
      std::istringstream in(it->second);
      std::string text;
      for (int i = 1; std::getline(in, text); ++i)
        if (i == line) return text;
      return {};
    }
  }
  std::ifstream in(file);
  std::string text;
  for (int i = 1; in && std::getline(in, text); ++i)
    if (i == line) return text;
  return {};
}

const char* severity_name(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note";
}

// clang's colours.
constexpr const char* kBold = "\033[1m";
constexpr const char* kReset = "\033[0m";
const char* severity_color(Severity s) {
  return s == Severity::Error ? "\033[1;31m" : s == Severity::Warning ? "\033[1;35m" : "\033[1;30m";
}
constexpr const char* kCaret = "\033[1;32m";

}  // namespace

std::string DiagEngine::render(const Diagnostic& d, bool color) {
  std::ostringstream os;
  const char* sev = severity_name(d.severity);
  if (!d.loc.file.empty()) {
    if (color) os << kBold;
    os << d.loc.file;
    if (d.loc.valid()) os << ":" << d.loc.line << ":" << d.loc.col;
    os << ": ";
    if (color) os << kReset;
  }
  if (color) os << severity_color(d.severity) << sev << ":" << kReset << kBold << " " << d.message << kReset << "\n";
  else os << sev << ": " << d.message << "\n";
  if (d.loc.valid()) {
    std::string text = source_line(d.loc.file, d.loc.line);
    if (!text.empty()) {
      os << text << "\n";
      std::string caret;
      // Keep tabs so the caret lines up under the source text.
      for (int i = 0; i + 1 < d.loc.col && i < (int)text.size(); ++i) caret += text[i] == '\t' ? '\t' : ' ';
      if (color) os << caret << kCaret << "^" << kReset << "\n";
      else os << caret << "^\n";
    }
  }
  return os.str();
}

std::vector<Diagnostic> DiagEngine::take_since(size_t mark) {
  std::vector<Diagnostic> out;
  if (mark >= diags_.size()) return out;
  out.assign(std::make_move_iterator(diags_.begin() + mark), std::make_move_iterator(diags_.end()));
  diags_.resize(mark);
  for (auto& d : out)
    if (d.severity == Severity::Error) --error_count_;
  return out;
}

void DiagEngine::print_all(std::ostream& os) const {
  for (auto& d : diags_) emit_diagnostic(d, os);
}

void set_diagnostic_style(const DiagStyle& style) {
  Sink& s = sink();
  std::lock_guard<std::mutex> lock(s.mu);
  s.style = style;
}

const DiagStyle& diagnostic_style() { return sink().style; }

void emit_diagnostic(const Diagnostic& d, std::ostream& os) {
  Sink& s = sink();
  DiagStyle style;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    style = s.style;
    if (style.format != DiagFormat::Text) {
      s.kept.push_back(d);
      return;
    }
  }
  os << DiagEngine::render(d, style.color);
}

void emit_tool_message(Severity sev, const std::string& program, const std::string& message, std::ostream& os) {
  const DiagStyle& style = diagnostic_style();
  if (style.format != DiagFormat::Text) {
    emit_diagnostic(Diagnostic{sev, ir::SourceLoc{}, message}, os);
    return;
  }
  if (style.color)
    os << kBold << program << ": " << kReset << severity_color(sev) << severity_name(sev) << ":" << kReset << " "
       << message << "\n";
  else os << program << ": " << severity_name(sev) << ": " << message << "\n";
}

std::string diagnostics_document(const std::string& program, const std::string& version) {
  using nlohmann::json;
  Sink& s = sink();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.style.format == DiagFormat::Text) return "";
  if (s.style.format == DiagFormat::Json) {
    json arr = json::array();
    for (const Diagnostic& d : s.kept) {
      json j = {{"severity", severity_name(d.severity)}, {"message", d.message}};
      j["file"] = d.loc.file.empty() ? json(nullptr) : json(d.loc.file);
      j["line"] = d.loc.valid() ? json(d.loc.line) : json(nullptr);
      j["column"] = d.loc.valid() ? json(d.loc.col) : json(nullptr);
      arr.push_back(std::move(j));
    }
    return json{{"program", program}, {"version", version}, {"diagnostics", std::move(arr)}}.dump(2) + "\n";
  }
  // SARIF 2.1.0 (OASIS), the form GitHub code scanning and editors read.
  json results = json::array();
  for (const Diagnostic& d : s.kept) {
    json r = {{"level", severity_name(d.severity)}, {"message", {{"text", d.message}}}};
    if (!d.loc.file.empty()) {
      json phys = {{"artifactLocation", {{"uri", d.loc.file}}}};
      if (d.loc.valid()) phys["region"] = {{"startLine", d.loc.line}, {"startColumn", std::max(d.loc.col, 1)}};
      r["locations"] = json::array({{{"physicalLocation", phys}}});
    }
    results.push_back(std::move(r));
  }
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({{{"tool", {{"driver", {{"name", program}, {"version", version}}}}},
                                     {"results", std::move(results)}}})}};
  return doc.dump(2) + "\n";
}

void register_source_text(const std::string& file, const std::string& text) {
  Sink& s = sink();
  std::lock_guard<std::mutex> lock(s.mu);
  s.texts[file] = text;
}

ToolMessage::ToolMessage(Severity s, std::string program) : severity_(s), program_(std::move(program)) {}

ToolMessage::~ToolMessage() { emit_tool_message(severity_, program_, text_.str(), std::cerr); }

}  // namespace mslport
