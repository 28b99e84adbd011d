#include "back/opencl/bindings.h"

#include <nlohmann/json.hpp>

namespace mslport::back::opencl {

namespace {
using json = nlohmann::ordered_json;

// `k` is the kernel as the front end built it (names and types as in
// Metal); `raised` is the same kernel raised, which may have more
// parameters: the pointers of argument buffers (passes/flatten_argument_buffers.h).
json arg_json(const ir::Module& m, const ir::Kernel& k, const ir::Kernel& raised, const ClArg& a) {
  json j;
  switch (a.kind) {
    case ClArg::Kind::Buffer:
    case ClArg::Kind::ThreadgroupMemory: {
      const ir::Param& p = size_t(a.param) < k.params.size() ? k.params[a.param] : raised.params.at(a.param);
      j["kind"] = a.kind == ClArg::Kind::Buffer ? "buffer" : "threadgroup_memory";
      j["index"] = p.index;
      // The pointer stored this many bytes into argument buffer `index`.
      if (p.argument_buffer_offset >= 0) j["argument_buffer_offset"] = p.argument_buffer_offset;
      j["name"] = p.name;
      // Bound only where this function constant (a bool the host sets) is
      // true; elsewhere any buffer will do, the kernel does not read it.
      if (!p.present_if.empty()) j["present_if"] = p.present_if;
      break;
    }
    case ClArg::Kind::SimdScratch:
      j["kind"] = "simd_scratch";
      j["bytes_per_thread"] = a.bytes_per_thread;
      break;
    case ClArg::Kind::Grid: j["kind"] = "grid"; break;
    case ClArg::Kind::FunctionConstant:
      // By value in `type`, except a bool (a uchar) and a half or bfloat (a float).
      j["kind"] = "function_constant";
      j["index"] = k.params.at(a.param).index;
      j["name"] = k.params[a.param].name;
      j["type"] = ir::type_name(m, k.params[a.param].type);
      break;
  }
  return j;
}
}  // namespace

// Laid out like docs/architecture.md: one argument per line, keys in a fixed order.
std::string bindings_json(const ir::Module& metal, const RaisedModule& raised, const std::string& source_name) {
  std::string out = "{\"source\": " + json(source_name).dump() + ", \"kernels\": [";
  for (size_t i = 0; i < raised.kernels.size(); ++i) {
    const ir::Kernel& k = metal.kernels.at(i);
    out += std::string(i ? "," : "") + "\n  {\"name\": " + json(k.name).dump() + ", \"args\": [";
    const auto& args = raised.kernels[i].args;
    for (size_t a = 0; a < args.size(); ++a) {
      std::string line = arg_json(metal, k, raised.module.kernels.at(i), args[a]).dump();
      // {"kind":"buffer","index":0} -> {"kind": "buffer", "index": 0}
      std::string spaced;
      bool in_string = false, escaped = false;
      for (char ch : line) {
        if (in_string && !escaped && ch == '"') in_string = false;
        else if (!in_string && ch == '"') in_string = true;
        escaped = in_string && !escaped && ch == '\\';
        spaced += ch;
        if (!in_string && (ch == ':' || ch == ',')) spaced += ' ';
      }
      out += std::string(a ? "," : "") + "\n    " + spaced;
    }
    out += "\n  ]}";
  }
  out += "]}\n";
  return out;
}

}  // namespace mslport::back::opencl
