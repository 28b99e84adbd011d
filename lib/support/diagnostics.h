// Diagnostics in clang's form: `file:line:col: error: message`, then the
// source line and a caret. Every component reports through a DiagEngine so
// that the tool decides once how (and whether) to print.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace mslport {

enum class Severity { Note, Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  ir::SourceLoc loc;
  std::string message;
};

class DiagEngine {
 public:
  void report(Severity s, ir::SourceLoc loc, std::string message);
  void error(ir::SourceLoc loc, std::string message) { report(Severity::Error, std::move(loc), std::move(message)); }
  void warning(ir::SourceLoc loc, std::string message) { report(Severity::Warning, std::move(loc), std::move(message)); }
  void note(ir::SourceLoc loc, std::string message) { report(Severity::Note, std::move(loc), std::move(message)); }

  bool has_errors() const { return error_count_ > 0; }
  int error_count() const { return error_count_; }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }

  // Renders one diagnostic: "file:line:col: error: msg\n<source line>\n   ^\n".
  // The source line is read from loc.file (skipped if unreadable).
  static std::string render(const Diagnostic& d);
  void print_all(std::ostream& os) const;
  void clear() { diags_.clear(); error_count_ = 0; }
  // Removes and returns the diagnostics reported since diagnostics().size()
  // was `mark` (a unit of work that failed is reported another way).
  std::vector<Diagnostic> take_since(size_t mark);

 private:
  std::vector<Diagnostic> diags_;
  int error_count_ = 0;
};

// A kernel left out of a translation, and why (each reason at the user's
// file:line:col). `mslport translate` reports them and goes on with the
// others; --Werror makes them errors.
struct SkippedKernel {
  std::string name;
  ir::SourceLoc loc;
  std::vector<Diagnostic> reasons;
};

}  // namespace mslport
