// Diagnostics in clang's form: `file:line:col: error: message`, then the
// source line and a caret. Every component reports through a DiagEngine so
// that the tool decides once how (and whether) to print.
#pragma once

#include <iosfwd>
#include <sstream>
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
  void warning(ir::SourceLoc loc, std::string message) {
    report(Severity::Warning, std::move(loc), std::move(message));
  }
  void note(ir::SourceLoc loc, std::string message) { report(Severity::Note, std::move(loc), std::move(message)); }

  bool has_errors() const { return error_count_ > 0; }
  int error_count() const { return error_count_; }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }

  // Renders one diagnostic: "file:line:col: error: msg\n<source line>\n   ^\n".
  // The source line is read from loc.file (skipped if unreadable), or from
  // the text registered for it (register_source_text). `color`: clang's
  // colours (ANSI escapes).
  static std::string render(const Diagnostic& d, bool color = false);
  // Emits every diagnostic as the process's diagnostic style says
  // (emit_diagnostic).
  void print_all(std::ostream& os) const;
  void clear() {
    diags_.clear();
    error_count_ = 0;
  }
  // Removes and returns the diagnostics reported since diagnostics().size()
  // was `mark` (a unit of work that failed is reported another way).
  std::vector<Diagnostic> take_since(size_t mark);

 private:
  std::vector<Diagnostic> diags_;
  int error_count_ = 0;
};

// ---- How the tool prints diagnostics (--color, --diagnostics-format).
// Set once from the command line; every diagnostic and every message of the
// tool goes through emit_diagnostic, so the choice holds everywhere.

enum class DiagFormat { Text, Json, Sarif };

struct DiagStyle {
  DiagFormat format = DiagFormat::Text;
  bool color = false;  // text only
};

void set_diagnostic_style(const DiagStyle& style);
const DiagStyle& diagnostic_style();

// Text: renders `d` to `os` (coloured when the style says so). JSON and
// SARIF: keeps it for the document diagnostics_document() returns; `os` is
// not written. Safe to call from several threads.
void emit_diagnostic(const Diagnostic& d, std::ostream& os);

// A message of the tool that has no source location: "mslport: error: msg"
// in text (the program name and severity coloured), a diagnostic without a
// location in JSON and SARIF.
void emit_tool_message(Severity s, const std::string& program, const std::string& message, std::ostream& os);

// The whole JSON or SARIF 2.1.0 document of the diagnostics emitted so far
// (empty in text format); the tool prints it to stderr as it exits.
std::string diagnostics_document(const std::string& program, const std::string& version);

// Diagnostics of a file that is not on disk (standard input) read their
// source lines from this text.
void register_source_text(const std::string& file, const std::string& text);

// A tool message built with <<, emitted when it goes out of scope:
//   ToolMessage(Severity::Error) << "cannot read " << path;
class ToolMessage {
 public:
  explicit ToolMessage(Severity s, std::string program = "mslport");
  ~ToolMessage();
  ToolMessage(const ToolMessage&) = delete;
  ToolMessage& operator=(const ToolMessage&) = delete;
  template <typename T>
  ToolMessage& operator<<(const T& v) {
    text_ << v;
    return *this;
  }

 private:
  Severity severity_;
  std::string program_;
  std::ostringstream text_;
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
