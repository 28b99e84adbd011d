#include "support/diagnostics.h"

#include <fstream>
#include <ostream>
#include <sstream>

namespace mslport {

void DiagEngine::report(Severity s, ir::SourceLoc loc, std::string message) {
  if (s == Severity::Error) ++error_count_;
  diags_.push_back(Diagnostic{s, std::move(loc), std::move(message)});
}

static std::string source_line(const std::string& file, int line) {
  std::ifstream in(file);
  std::string text;
  for (int i = 1; in && std::getline(in, text); ++i)
    if (i == line) return text;
  return {};
}

std::string DiagEngine::render(const Diagnostic& d) {
  std::ostringstream os;
  const char* sev = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
  if (!d.loc.file.empty()) {
    os << d.loc.file;
    if (d.loc.valid()) os << ":" << d.loc.line << ":" << d.loc.col;
    os << ": ";
  }
  os << sev << ": " << d.message << "\n";
  if (d.loc.valid()) {
    std::string text = source_line(d.loc.file, d.loc.line);
    if (!text.empty()) {
      os << text << "\n";
      std::string caret;
      // Keep tabs so the caret lines up under the source text.
      for (int i = 0; i + 1 < d.loc.col && i < (int)text.size(); ++i) caret += text[i] == '\t' ? '\t' : ' ';
      os << caret << "^\n";
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
  for (auto& d : diags_) os << render(d);
}

}  // namespace mslport
