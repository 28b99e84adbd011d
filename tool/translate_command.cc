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

namespace fs = std::filesystem;

namespace mslport::tool {

int run_translate(const std::string& file, const std::string& target, const std::string& output,
                  const TranslateOptions& options) {
  DiagEngine diags;
  Translation t;
  Target tg = target == "opencl" ? Target::OpenCL : Target::OpenMP;
  bool ok = translate_file(file, tg, options, diags, &t);
  diags.print_all(std::cerr);
  report_skipped(t, options, /*always=*/ok, std::cerr);
  if (!ok) return 1;
  if (tg == Target::OpenMP) {
    if (output.empty() || output == "-") {
      // One self-contained file on stdout: header declarations inline.
      std::string cpp = t.cpp;
      std::string inc = "#include \"" + t.stem + ".h\"\n";
      auto pos = cpp.find(inc);
      if (pos != std::string::npos) {
        std::string hdr = t.header.substr(t.header.find("#pragma once\n") + 13);
        cpp.replace(pos, inc.size(), hdr);
      }
      std::cout << cpp;
      return 0;
    }
    std::string err;
    fs::path out(output);
    fs::path header = out;
    header.replace_extension(".h");
    std::string cpp = t.cpp;
    std::string inc = "#include \"" + t.stem + ".h\"";
    auto pos = cpp.find(inc);
    if (pos != std::string::npos) cpp.replace(pos, inc.size(), "#include \"" + header.filename().string() + "\"");
    if (!write_files_atomic({{header.string(), t.header}, {out.string(), cpp}}, &err)) {
      std::cerr << "mslport: error: " << err << "\n";
      return 1;
    }
    return 0;
  }
  if (output.empty() || output == "-") {
    std::cout << t.cl;
    return 0;
  }
  std::string err;
  fs::path bindings = fs::path(output).replace_extension(".bindings.json");
  if (!write_files_atomic({{output, t.cl}, {bindings.string(), t.bindings}}, &err)) {
    std::cerr << "mslport: error: " << err << "\n";
    return 1;
  }
  return 0;
}

int run_ir(const IrOptions& o) {
  DiagEngine diags;
  auto m = front::parse_metal_file(o.file, diags, o.parse);
  diags.print_all(std::cerr);
  if (!m || diags.has_errors()) return 1;
  int kernel = -1;
  if (!o.kernel.empty()) {
    const ir::Kernel* k = m->find_kernel(o.kernel);
    if (!k) {
      std::cerr << o.file << ": error: no kernel named '" << o.kernel << "' (kernels:";
      for (auto& x : m->kernels) std::cerr << " " << x.name;
      std::cerr << ")\n";
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
      std::cerr << "mslport: error: --sanitize is for the openmp target\n";
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
      std::cerr << "mslport: error: " << error << "\n";
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
        std::cerr << "mslport: error: no step '" << n << "' in the " << o.target << " pipeline (steps:";
        for (const std::string& s : steps) std::cerr << " " << s;
        std::cerr << ")\n";
        return 1;
      }
  return 0;
}

}  // namespace mslport::tool
