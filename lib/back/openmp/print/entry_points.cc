// Per kernel: the threadgroup's state struct, the threadgroup function
// around the body kernel_printer.cc prints, the typed entry point (buffers
// as typed pointers, constant structs by reference, the dispatch) that runs
// the threadgroups in parallel, and the generic extern "C" entry
// (mslport_args) the runner calls.
#include <sstream>

#include "back/openmp/print/cpp_printer.h"
#include "back/openmp/print/kernel_printer.h"
#include "back/openmp/print/printer.h"

namespace mslport::back::openmp {
namespace {

using ir::Param;

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

struct Parameters {
  std::vector<std::string> typed;        // the typed entry point's
  std::vector<std::string> threadgroup;  // the threadgroup function's (before geo, st, err)
  std::vector<std::string> tg_args;      // what the typed entry passes for them
  std::vector<std::string> generic;      // what the generic entry passes to the typed one
};

// For a parameter the host binds only where a flag it sets is true
// (Param::present_if): the generic entry's test of that flag.
std::string flag_test(const ir::Kernel& k, const Param& prm) {
  for (const Param& f : k.params)
    if (f.kind == Param::Kind::FunctionConstant && f.name == prm.present_if)
      return "mslport::require_function_constant<bool>(a, " + std::to_string(f.index) + "u, " +
             cpp_string_literal(f.name) + ")";
  return "true";  // front end: the kernel has the flag's parameter
}

Parameters parameters(const ir::Kernel& k, const CppPrinter& p, bool sanitize) {
  Parameters out;
  for (auto& prm : k.params) {
    switch (prm.kind) {
      case Param::Kind::Buffer:
        out.typed.push_back(p.type(prm.type) + " " + prm.name);
        out.threadgroup.push_back(p.type(prm.type) + " " + prm.name);
        out.tg_args.push_back(prm.name);
        // A pointer an argument buffer holds: its address, where the host
        // stored it (Metal 3's host writes a buffer's gpuAddress there).
        if (prm.argument_buffer_offset >= 0)
          out.generic.push_back("mslport::require_argument_buffer_pointer<" + p.type(*prm.type.elem) + ">(a, " +
                                std::to_string(prm.index) + ", " + std::to_string(prm.argument_buffer_offset) + "u, " +
                                cpp_string_literal(prm.name) + ")");
        else if (!prm.present_if.empty())  // null where the flag is false: the kernel does not use it
          out.generic.push_back("(" + flag_test(k, prm) + " ? mslport::require_buffer<" + p.type(*prm.type.elem) +
                                ">(a, " + std::to_string(prm.index) + ", " + cpp_string_literal(prm.name) +
                                ") : nullptr)");
        else
          out.generic.push_back("mslport::require_buffer<" + p.type(*prm.type.elem) + ">(a, " +
                                std::to_string(prm.index) + ", " + cpp_string_literal(prm.name) + ")");
        break;
      case Param::Kind::ConstantRef:
      case Param::Kind::ConstantValue:
        out.typed.push_back("const " + p.type(prm.type) + "& " + prm.name);
        // By value inside the threadgroup: a reference could alias the
        // buffers the kernel writes, forcing a reload after every store.
        out.threadgroup.push_back("const " + p.type(prm.type) + " " + prm.name);
        out.tg_args.push_back(prm.name);
        // Where a flag says the host binds it and the flag is false: a
        // zero value, which the kernel does not read.
        out.generic.push_back(prm.present_if.empty()
                                  ? "*mslport::require_buffer<const " + p.type(prm.type) + ">(a, " +
                                        std::to_string(prm.index) + ", " + cpp_string_literal(prm.name) + ")"
                                  : "*(" + flag_test(k, prm) + " ? mslport::require_buffer<const " + p.type(prm.type) +
                                        ">(a, " + std::to_string(prm.index) + ", " + cpp_string_literal(prm.name) +
                                        ") : mslport::absent_value<" + p.type(prm.type) + ">())");
        break;
      case Param::Kind::FunctionConstant:
        out.typed.push_back(p.type(prm.type) + " " + prm.name);
        out.threadgroup.push_back("const " + p.type(prm.type) + " " + prm.name);
        out.tg_args.push_back(prm.name);
        out.generic.push_back("mslport::require_function_constant<" + p.type(prm.type) + ">(a, " +
                              std::to_string(prm.index) + "u, " + cpp_string_literal(prm.name) + ")");
        break;
      case Param::Kind::ThreadgroupMemory:
        out.typed.push_back("uint32_t " + prm.name + "_bytes");
        out.threadgroup.push_back(p.type(prm.type) + " " + prm.name);
        out.tg_args.push_back("static_cast<" + p.type(prm.type) + ">(" + prm.name + "_mem.data())");
        if (sanitize) {  // the checker bounds it by the size asked for
          out.threadgroup.push_back("uint32_t " + prm.name + "_bytes");
          out.tg_args.push_back(prm.name + "_bytes");
        }
        // The runner's size, refused when 0 (mslport/openmp_rt.h).
        out.generic.push_back("mslport::require_threadgroup_memory(a, " + std::to_string(prm.index) + ", \"" +
                              prm.name + "\")");
        break;
      case Param::Kind::Builtin:
      // Helper functions' parameters: inline_functions left no helper.
      case Param::Kind::Value:
      case Param::Kind::Reference: break;
    }
  }
  out.typed.push_back("const mslport_dispatch& dispatch");
  out.generic.push_back("*d");
  return out;
}

// The sanitizer's sites, and the statements that start its checker with the
// threadgroup's allocations (raise/sanitize.h numbers them).
std::string site_definitions(const ir::Kernel& k, const SanitizerSites& sites) {
  std::string out;
  for (size_t i = 0; i < sites.locs.size(); ++i)
    out += "const mslport::san::Site mslport_site_" + k.name + "_" + std::to_string(i) + " = {" +
           cpp_string_literal(sites.locs[i].file) + ", " + std::to_string(sites.locs[i].line) + ", " +
           std::to_string(sites.locs[i].col) + "};\n";
  return out;
}

std::vector<std::string> sanitizer_begin(const ir::Kernel& k, const CppPrinter& p, unsigned checks) {
  const int nregions = int(k.tg_allocs.size() + k.params.size());
  std::vector<std::string> out;
  out.push_back("mslport::san::Checker& mslport_san = mslport::san::begin(geo, " + std::to_string(checks) + "u, " +
                std::to_string(nregions) + ");");
  out.push_back("mslport::san::Scope mslport_san_scope{mslport_san};");
  for (size_t i = 0; i < k.tg_allocs.size(); ++i) {
    const ir::TgAlloc& a = k.tg_allocs[i];
    const ir::Type* e = &a.type;
    while (e->kind == ir::Type::Kind::Array) e = e->elem.get();
    out.push_back("mslport_san.region(" + std::to_string(i) + ", " + cpp_string_literal(a.name) + ", true, &" + a.name +
                  ", sizeof " + a.name + ", sizeof(" + p.type(*e) + "));");
  }
  for (size_t i = 0; i < k.params.size(); ++i) {
    const Param& prm = k.params[i];
    if (prm.kind != Param::Kind::ThreadgroupMemory && prm.kind != Param::Kind::Buffer) continue;
    std::string id = std::to_string(k.tg_allocs.size() + i);
    // A `device void*` buffer's elements are its bytes.
    std::string elem = prm.type.elem->kind == ir::Type::Kind::Void ? "1" : "sizeof(" + p.type(*prm.type.elem) + ")";
    if (prm.kind == Param::Kind::ThreadgroupMemory)
      out.push_back("mslport_san.region(" + id + ", " + cpp_string_literal(prm.name) + ", true, " + prm.name + ", " +
                    prm.name + "_bytes, " + elem + ");");
    else
      // The size of a buffer an argument buffer points to is not passed:
      // 0, unknown, checks neither its bounds nor its races.
      out.push_back("mslport_san.region(" + id + ", " + cpp_string_literal(prm.name) + ", false, " + prm.name + ", " +
                    (prm.argument_buffer_offset >= 0
                         ? std::string("0")
                         : "mslport::san::buffer_bytes(" + std::to_string(prm.index) + ")") +
                    ", " + elem + ", " +
                    // Only buffers the kernel can write take part in race checks.
                    (prm.type.space == ir::AddressSpace::Device && !prm.type.is_const ? "true" : "false") + ");");
  }
  return out;
}

}  // namespace

bool print_kernel(const RaisedModule& raised, size_t kernel, const EmitOptions& options, DiagEngine& diags,
                  KernelText* out) {
  const ir::Module& m = raised.module;
  const ir::Kernel& k = m.kernels[kernel];
  const RaisedKernel& r = raised.kernels[kernel];
  const bool sanitize = options.sanitize != 0;
  CppPrinter p(m, &k, &r.storage, diags);
  // The body first: it names the collectives' members of the state struct.
  ThreadgroupBody body;
  bool ok = print_threadgroup_body(m, k, r, options, diags, &body);
  // The per-work-item variables, the last declared first.
  std::vector<std::string> state_members;
  for (size_t i = k.vars.size(); i-- > 0;) {
    if (r.storage.storage[i] != Storage::PerThread) continue;
    // name[kMaxThreads] goes right after the name, before any array bounds.
    state_members.push_back(p.declarator(k.vars[i].type, k.vars[i].name + "[mslport::kMaxThreads]") + ";");
  }
  state_members.insert(state_members.end(), body.state_members.begin(), body.state_members.end());
  const Parameters params = parameters(k, p, sanitize);
  const std::string where = comment_text(loc_string(k.loc));

  // The generic entry for C: what goes where in mslport_args.
  std::ostringstream c;
  c << "// " << comment_text(r.metal_name) << " (" << where << "); in C++ mslport_kernels::" << k.name << "\n";
  for (auto& prm : k.params) {
    if (prm.kind == Param::Kind::Buffer && prm.argument_buffer_offset >= 0)
      c << "//   the pointer at byte " << prm.argument_buffer_offset << " of args->buffers[" << prm.index << "]  "
        << prm.name << ": " << comment_text(ir::type_name(m, prm.type)) << "\n";
    else if (prm.kind == Param::Kind::Buffer || prm.kind == Param::Kind::ConstantRef ||
             prm.kind == Param::Kind::ConstantValue)
      c << "//   args->buffers[" << prm.index << "]  " << prm.name << ": "
        << (prm.kind == Param::Kind::Buffer
                ? comment_text(ir::type_name(m, prm.type))
                : "constant " + comment_text(ir::type_name(m, prm.type)) + "& (a pointer to the value)")
        << (prm.present_if.empty() ? "" : ", bound only where " + prm.present_if + " is true") << "\n";
    else if (prm.kind == Param::Kind::ThreadgroupMemory)
      c << "//   args->threadgroup_bytes[" << prm.index << "]  " << prm.name << ": "
        << comment_text(ir::type_name(m, prm.type)) << " (its size in bytes)\n";
    else if (prm.kind == Param::Kind::FunctionConstant)
      c << "//   args->function_constants, index " << prm.index << "  " << prm.name << ": "
        << comment_text(ir::type_name(m, prm.type)) << " (the host sets it)\n";
  }
  c << "int mslport_entry_" << k.name
    << "(const mslport_args* args, const mslport_dispatch* dispatch, char* err, size_t err_len);\n\n";

  std::ostringstream header, cpp;
  header << "// " << k.name << " (" << where << ")\n";
  header << "void " << k.name << "(" << join(params.typed, ", ") << ");\n\n";

  const std::string state = k.name + "_state";
  cpp << "// ---- " << k.name << " (" << where << ")\n\n";
  cpp << "namespace {\n";
  cpp << "// Per-work-item values that live across a barrier or SIMD-group function.\n";
  cpp << "struct " << state << " {\n";
  for (auto& mbr : state_members) cpp << "  " << mbr << "\n";
  if (state_members.empty()) cpp << "  char unused;\n";
  cpp << "};\n\n";
  std::vector<std::string> tgp = params.threadgroup;
  tgp.push_back("const mslport::Geometry& geo");
  tgp.push_back(state + "& st");
  tgp.push_back("mslport::ErrorSlot& err");
  if (sanitize) cpp << site_definitions(k, r.sites) << "\n";
  cpp << "// One threadgroup.\n";
  cpp << "void " << k.name << "_threadgroup(" << join(tgp, ", ") << ") {\n";
  cpp << "  const uint32_t nthreads = geo.nthreads;\n";
  cpp << "  (void)st; (void)err; (void)nthreads;\n";
  if (r.loops.all_alive_var >= 0)
    cpp << "  bool mslport_all_alive = true;  // no work-item of the group has returned\n  (void)mslport_all_alive;\n";
  for (auto& a : k.tg_allocs) cpp << "  " << p.declarator(a.type, a.name) << ";\n";
  if (sanitize)
    for (auto& l : sanitizer_begin(k, p, options.sanitize)) cpp << "  " << l << "\n";
  // Threadgroup-uniform builtins, once per threadgroup.
  for (int i : r.loops.threadgroup_builtins) {
    const Param& prm = k.params[i];
    cpp << "  const " << p.type(prm.type) << " " << prm.name << " = " << builtin_value(prm, false) << ";\n";
  }
  cpp << body.text;
  cpp << "}\n";
  cpp << "}  // namespace\n\n";

  cpp << "void " << k.name << "(" << join(params.typed, ", ") << ") {\n";
  cpp << "  mslport::validate_dispatch(dispatch);\n";
  cpp << "  const int64_t ngroups = int64_t(mslport::group_count(dispatch));\n";
  cpp << "  mslport::ErrorSlot err;\n";
  if (sanitize) {
    // Sanitizing: one threadgroup at a time, so the checker's device-buffer
    // shadow sees the whole dispatch without locks.
    cpp << "  mslport::san::dispatch_begin();\n";
    cpp << "#pragma omp parallel num_threads(1)\n";
  } else {
    cpp << "#pragma omp parallel\n";
  }
  cpp << "  {\n";
  cpp << "    std::unique_ptr<" << state << "> st(new " << state << ");\n";
  for (auto& prm : k.params)
    if (prm.kind == Param::Kind::ThreadgroupMemory)
      cpp << "    mslport::ThreadgroupMemory " << prm.name << "_mem(" << prm.name << "_bytes);\n";
  // Non-temporal stores are weakly ordered: each thread fences its own once,
  // after its last threadgroup (not per threadgroup: a fence waits for the
  // stores to drain, and per 1 KB row that stalled residual_add by 1.5x).
  // The kernel never reads those buffers (streaming_stores.h), so nothing
  // during the launch can see the order.
  cpp << "#pragma omp for schedule(static)" << (r.loops.streams ? " nowait" : "") << "\n";
  cpp << "    for (int64_t g = 0; g < ngroups; ++g) {\n";
  cpp << "      if (err.failed()) continue;\n";
  cpp << "      const mslport::Geometry geo(dispatch, uint64_t(g));\n";
  std::vector<std::string> call_args = params.tg_args;
  call_args.push_back("geo");
  call_args.push_back("*st");
  call_args.push_back("err");
  cpp << "      " << k.name << "_threadgroup(" << join(call_args, ", ") << ");\n";
  cpp << "    }\n";
  if (r.loops.streams)
    cpp << "    mslport::stream_fence();  // this thread's non-temporal stores, before the launch returns\n";
  cpp << "  }\n";
  cpp << "  err.rethrow();\n";
  cpp << "}\n\n";

  cpp << "extern \"C\" int mslport_entry_" << k.name
      << "(const mslport_args* a, const mslport_dispatch* d, char* msg, size_t msg_len) {\n";
  cpp << "  try {\n";
  if (sanitize) cpp << "    mslport::san::current_args() = a;  // buffer sizes for the bounds checks\n";
  cpp << "    " << k.name << "(" << join(params.generic, ", ") << ");\n";
  cpp << "    return 0;\n";
  cpp << "  } catch (const std::exception& e) {\n";
  cpp << "    std::snprintf(msg, msg_len, \"%s: %s\", " << cpp_string_literal(r.metal_name) << ", e.what());\n";
  cpp << "    return 1;\n";
  cpp << "  }\n";
  cpp << "}\n\n";
  out->c_declaration = c.str();
  out->declaration = header.str();
  out->definitions = cpp.str();
  return ok && p.ok();
}

}  // namespace mslport::back::openmp
