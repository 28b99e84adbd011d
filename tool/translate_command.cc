#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "back/opencl/emit_opencl.h"
#include "back/openmp/emit_openmp.h"
#include "commands.h"
#include "front/parse_metal.h"
#include "ir/printer.h"
#include "support/atomic_file.h"
#include "support/large_stack.h"

namespace fs = std::filesystem;

namespace mslport::tool {

namespace {

// The emitted C++ with its header's declarations inline: one self-contained
// file, for stdout and for stream destinations (/dev/null, a FIFO).
std::string self_contained_cpp(const Translation& t) {
  std::string cpp = t.cpp;
  std::string inc = "#include \"" + t.stem + ".h\"\n";
  auto pos = cpp.find(inc);
  if (pos != std::string::npos) {
    std::string hdr = t.header.substr(t.header.find("#pragma once\n") + 13);
    cpp.replace(pos, inc.size(), hdr);
  }
  return cpp;
}

// Whether two paths name the same existing file (through links and
// different spellings).
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Standard input read whole, bounded like any source file the front end
// reads.
constexpr size_t kMaxStdinBytes = 64u << 20;

bool read_stdin(std::string* text, std::string* error) {
  text->clear();
  char buf[65536];
  while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
    text->append(buf, static_cast<size_t>(std::cin.gcount()));
    if (text->size() > kMaxStdinBytes) {
      *error = "standard input holds more than 64 MiB; that is not a .metal source";
      return false;
    }
  }
  if (std::cin.bad()) {
    *error = "cannot read standard input";
    return false;
  }
  return true;
}

}  // namespace

int run_translate(const std::string& file_arg, const std::string& target, const std::string& output,
                  const std::string& bindings, const TranslateOptions& options_in) {
  Target tg = target == "opencl" ? Target::OpenCL : Target::OpenMP;
  const bool to_stdout = output.empty() || output == "-";
  TranslateOptions options = options_in;
  std::string file = file_arg;
  if (!bindings.empty() && tg != Target::OpenCL) {
    ToolMessage(Severity::Error) << "--bindings is for --target opencl (the C++ output's header goes beside -o)";
    return 2;
  }
  if (file == "-") {
    // As clang reads `-`: diagnostics name <stdin>; "quoted" includes
    // resolve from the current folder.
    std::string text, err;
    if (!read_stdin(&text, &err)) {
      ToolMessage(Severity::Error) << err;
      return 1;
    }
    file = "<stdin>";
    register_source_text(file, text);
    options.source_text = std::move(text);
    options.stem = to_stdout || is_stream_destination(output) ? "stdin" : fs::path(output).stem().string();
  }
  // The files -o writes: PATH, and its companion (PATH.h, PATH.bindings.json).
  std::vector<std::string> outputs;
  if (!to_stdout) {
    outputs.push_back(output);
    if (!is_stream_destination(output)) {
      fs::path companion(output);
      companion.replace_extension(tg == Target::OpenMP ? ".h" : ".bindings.json");
      if (tg == Target::OpenCL && !bindings.empty()) companion = bindings;
      if (companion.string() == output) {
        if (tg == Target::OpenMP)
          ToolMessage(Severity::Error) << "-o '" << output << "': the C++ output and its header would both be '"
                                       << output << "'; name the output X.cpp (its header is then X.h)";
        else ToolMessage(Severity::Error) << "-o '" << output << "' and --bindings name the same file";
        return 2;
      }
      outputs.push_back(companion.string());
    }
  }
  // Bindings beside a stream (stdout, a FIFO): only where --bindings says.
  const bool side_bindings = !bindings.empty() && (to_stdout || is_stream_destination(output));
  if (side_bindings) outputs.push_back(bindings);
  // As clang does: an output never overwrites the input.
  if (!options.source_text)
    for (const auto& o : outputs)
      if (same_file(o, file)) {
        ToolMessage(Severity::Error) << "-o '" << output << "' would overwrite the input file '" << file << "'"
                                     << (o == output ? "" : " (through '" + o + "')");
        return 1;
      }

  DiagEngine diags;
  Translation t;
  bool ok = translate_file(file, tg, options, diags, &t);
  diags.print_all(std::cerr);
  report_skipped(t, options, /*always=*/ok, std::cerr);
  if (!ok) return 1;
  std::string err;
  if (to_stdout || is_stream_destination(output)) {
    // One stream: the C++ with its header inline, or the OpenCL C alone
    // (its bindings to --bindings FILE).
    std::string text = tg == Target::OpenMP ? self_contained_cpp(t) : t.cl;
    if (side_bindings && !write_file_atomic(bindings, t.bindings, &err)) {
      ToolMessage(Severity::Error) << err;
      return 1;
    }
    if (to_stdout) {
      std::cout << text;
      std::cout.flush();
      if (!std::cout) {
        ToolMessage(Severity::Error) << "cannot write standard output";
        return 1;
      }
      return 0;
    }
    if (!write_through(output, text, &err)) {
      ToolMessage(Severity::Error) << err;
      return 1;
    }
    return 0;
  }
  if (tg == Target::OpenMP) {
    fs::path header(outputs[1]);
    std::string cpp = t.cpp;
    std::string inc = "#include \"" + t.stem + ".h\"";
    auto pos = cpp.find(inc);
    if (pos != std::string::npos) cpp.replace(pos, inc.size(), "#include \"" + header.filename().string() + "\"");
    if (!write_files_atomic({{outputs[1], t.header}, {output, cpp}}, &err)) {
      ToolMessage(Severity::Error) << err;
      return 1;
    }
    return 0;
  }
  if (!write_files_atomic({{output, t.cl}, {outputs[1], t.bindings}}, &err)) {
    ToolMessage(Severity::Error) << err;
    return 1;
  }
  return 0;
}

namespace {

int run_ir_on_this_stack(const IrOptions& o) {
  DiagEngine diags;
  auto m = front::parse_metal_file(o.file, diags, o.parse);
  diags.print_all(std::cerr);
  if (!m || diags.has_errors()) return 1;
  int kernel = -1;
  if (!o.kernel.empty()) {
    const ir::Kernel* k = m->find_kernel(o.kernel);
    if (!k) {
      std::string list;
      for (auto& x : m->kernels) list += " " + x.name;
      emit_diagnostic(Diagnostic{Severity::Error, ir::SourceLoc{o.file, 0, 0},
                                 "no kernel named '" + o.kernel + "' (kernels:" + list + ")"},
                      std::cerr);
      return 1;
    }
    kernel = int(k - m->kernels.data());
  }
  if (o.print_before.empty() && o.print_after.empty() && !o.verify_each && o.sanitize.empty()) {
    std::cout << (kernel < 0 ? ir::print_module(*m) : ir::print_kernel(*m, m->kernels[kernel]));
    return 0;
  }
  // The target's pipeline, printing the IR around the steps asked for; the
  // emitted code is dropped.
  passes::PipelineOptions pipeline;
  pipeline.print_before.insert(o.print_before.begin(), o.print_before.end());
  pipeline.print_after.insert(o.print_after.begin(), o.print_after.end());
  pipeline.kernel = kernel;
  pipeline.verify_each = o.verify_each;
  std::ostringstream dump;
  pipeline.out = &dump;
  std::vector<std::string> steps;
  pipeline.steps_run = &steps;
  DiagEngine backend;
  bool ok;
  if (o.target == "opencl") {
    if (!o.sanitize.empty()) {
      ToolMessage(Severity::Error) << "--sanitize is for the openmp target";
      return 1;
    }
    back::opencl::EmitOptions eo;
    eo.tool_version = kVersion;
    eo.pipeline = &pipeline;
    back::opencl::EmitResult r;
    ok = back::opencl::emit_module(*m, eo, backend, &r);
  } else {
    back::openmp::EmitOptions eo;
    eo.tool_version = kVersion;
    eo.pipeline = &pipeline;
    std::string error;
    if (!o.sanitize.empty() && !parse_sanitize_list(o.sanitize, &eo.sanitize, &error)) {
      ToolMessage(Severity::Error) << error;
      return 1;
    }
    back::openmp::EmitResult r;
    ok = back::openmp::emit_module(*m, eo, backend, &r);
  }
  backend.print_all(std::cerr);
  std::cout << dump.str();
  if (!ok || backend.has_errors()) return 1;
  // LLVM's rule: a step that is not in the pipeline is an error, not silence.
  for (const auto* names : {&o.print_before, &o.print_after})
    for (const std::string& n : *names)
      if (n != "all" && std::find(steps.begin(), steps.end(), n) == steps.end()) {
        std::string list;
        for (const std::string& s : steps) list += " " + s;
        ToolMessage(Severity::Error) << "no step '" << n << "' in the " << o.target << " pipeline (steps:" << list
                                     << ")";
        return 1;
      }
  return 0;
}

}  // namespace

int run_ir(const IrOptions& o) {
  // The front end, the passes and the printer recurse over the input's
  // nesting: on the translation's large stack (support/large_stack.h).
  int status = 1;
  run_with_stack(kTranslationStackBytes, [&] { status = run_ir_on_this_stack(o); });
  return status;
}

}  // namespace mslport::tool
