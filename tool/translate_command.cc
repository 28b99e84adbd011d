#include <filesystem>
#include <iostream>

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

int run_ir(const std::string& file, const std::string& kernel, const front::ParseOptions& parse) {
  DiagEngine diags;
  auto m = front::parse_metal_file(file, diags, parse);
  diags.print_all(std::cerr);
  if (!m || diags.has_errors()) return 1;
  if (kernel.empty()) {
    std::cout << ir::print_module(*m);
    return 0;
  }
  const ir::Kernel* k = m->find_kernel(kernel);
  if (!k) {
    std::cerr << file << ": error: no kernel named '" << kernel << "' (kernels:";
    for (auto& x : m->kernels) std::cerr << " " << x.name;
    std::cerr << ")\n";
    return 1;
  }
  std::cout << ir::print_kernel(*m, *k);
  return 0;
}

}  // namespace mslport::tool
