#include "runtime/golden_case.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "mslport/kernel_abi.h"
#include "runtime/compare.h"
#include "runtime/npy.h"
#include "support/regular_file.h"

namespace mslport::runtime {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Thrown inside the parser; carries the file and the field at fault.
struct CaseError {
  std::string file;
  std::string message;
};

std::string type_name(const json& j) {
  if (j.is_number_integer() || j.is_number_unsigned()) return "integer";
  return j.type_name();
}

class CaseParser {
 public:
  CaseParser(std::string dir, std::string file) : dir_(std::move(dir)), file_(std::move(file)) {}

  GoldenCase parse(const json& root) {
    if (!root.is_object()) fail("", "the top level must be an object, got " + type_name(root));
    GoldenCase c;
    c.dir = dir_;
    c.kernel = req_string(root, "kernel", "kernel");
    c.name = req_string(root, "case", "case");
    c.description = opt_string(root, "description", "description");
    c.dispatch = parse_dispatch(req(root, "dispatch", "dispatch"));
    const json& bufs = req(root, "buffers", "buffers");
    if (!bufs.is_array()) fail("buffers", "expected an array, got " + type_name(bufs));
    std::set<std::pair<int, int64_t>> seen;
    for (size_t i = 0; i < bufs.size(); ++i) {
      BufferSpec b = parse_buffer(bufs[i], "buffers[" + std::to_string(i) + "]");
      if (!seen.insert({b.index, b.argument_buffer_offset}).second)
        fail("buffers[" + std::to_string(i) + "].index",
             b.argument_buffer_offset < 0 ? "buffer index " + std::to_string(b.index) + " appears twice"
                                          : "the pointer at byte " + std::to_string(b.argument_buffer_offset) +
                                                " of argument buffer " + std::to_string(b.index) + " is given twice");
      c.buffers.push_back(std::move(b));
    }
    // A pointer stored in an argument buffer needs the argument buffer.
    for (size_t i = 0; i < c.buffers.size(); ++i) {
      const BufferSpec& b = c.buffers[i];
      if (b.argument_buffer_offset < 0) continue;
      if (!seen.count({b.index, -1}))
        fail("buffers[" + std::to_string(i) + "].argument_buffer_offset",
             "the case gives no argument buffer with index " + std::to_string(b.index) + " to hold this pointer");
    }
    if (root.contains("threadgroup_memory")) {
      const json& tgm = root["threadgroup_memory"];
      if (!tgm.is_array()) fail("threadgroup_memory", "expected an array, got " + type_name(tgm));
      std::set<int> tseen;
      for (size_t i = 0; i < tgm.size(); ++i) {
        std::string path = "threadgroup_memory[" + std::to_string(i) + "]";
        const json& t = tgm[i];
        if (!t.is_object()) fail(path, "expected an object, got " + type_name(t));
        ThreadgroupMemorySpec s;
        s.index = static_cast<int>(req_uint(t, "index", path + ".index", MSLPORT_MAX_BINDINGS - 1));
        s.bytes = static_cast<uint32_t>(req_uint(t, "bytes", path + ".bytes", UINT32_MAX));
        if (!tseen.insert(s.index).second)
          fail(path + ".index", "threadgroup memory index " + std::to_string(s.index) + " appears twice");
        c.threadgroup_memory.push_back(s);
      }
    }
    if (root.contains("function_constants"))
      c.function_constants = parse_function_constants(root["function_constants"]);
    // Every output gives its expected values, or none does (a case of
    // inputs only, which `check --differential` runs).
    int with = -1, without = -1;
    for (size_t i = 0; i < c.buffers.size(); ++i) {
      if (c.buffers[i].access == Access::Read) continue;
      (c.buffers[i].expected_path.empty() ? without : with) = static_cast<int>(i);
    }
    if (with >= 0 && without >= 0)
      fail("buffers[" + std::to_string(without) + "].expected",
           "missing; a case gives the expected values of every output (buffers[" + std::to_string(with) +
               "] has them) or of none (a case of inputs only, for check --differential)");
    return c;
  }

 private:
  // {"NAME": true | false | number, ...}: the values the kernel is
  // specialised with, as the C++ literals the front end substitutes.
  std::map<std::string, std::string> parse_function_constants(const json& fc) {
    if (!fc.is_object()) fail("function_constants", "expected an object, got " + type_name(fc));
    std::map<std::string, std::string> out;
    for (auto it = fc.begin(); it != fc.end(); ++it) {
      const std::string& name = it.key();
      std::string path = "function_constants." + name;
      bool identifier = !name.empty() && !std::isdigit((unsigned char)name[0]);
      for (char ch : name) identifier = identifier && (std::isalnum((unsigned char)ch) || ch == '_');
      bool index = !name.empty() &&
                   std::all_of(name.begin(), name.end(), [](char ch) { return std::isdigit((unsigned char)ch); });
      if (!identifier && !index) fail(path, "a function constant is named by an identifier or an index");
      const json& v = it.value();
      if (v.is_boolean()) out[name] = v.get<bool>() ? "true" : "false";
      else if (v.is_number_integer()) out[name] = std::to_string(v.get<int64_t>());
      else if (v.is_number_unsigned()) out[name] = std::to_string(v.get<uint64_t>());
      else if (v.is_number_float()) {
        double d = v.get<double>();
        if (!std::isfinite(d)) fail(path, "expected a finite number");
        std::ostringstream os;
        os.precision(17);
        os << d;
        std::string text = os.str();
        if (text.find_first_of(".eE") == std::string::npos) text += ".0";
        out[name] = text;
      } else {
        fail(path, "expected true, false or a number, got " + type_name(v));
      }
    }
    return out;
  }

  [[noreturn]] void fail(const std::string& field, const std::string& msg) {
    throw CaseError{file_, field.empty() ? msg : "field '" + field + "': " + msg};
  }

  const json& req(const json& obj, const char* key, const std::string& path) {
    auto it = obj.find(key);
    if (it == obj.end()) fail(path, "missing");
    return *it;
  }
  std::string req_string(const json& obj, const char* key, const std::string& path) {
    const json& v = req(obj, key, path);
    if (!v.is_string()) fail(path, "expected a string, got " + type_name(v));
    if (v.get<std::string>().empty()) fail(path, "must not be empty");
    return v.get<std::string>();
  }
  std::string opt_string(const json& obj, const char* key, const std::string& path) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return "";
    if (!it->is_string()) fail(path, "expected a string, got " + type_name(*it));
    return it->get<std::string>();
  }
  // A "TODO: ..." string is a placeholder `mslport new-case` wrote.
  void no_placeholder(const json& v, const std::string& path) {
    if (v.is_string() && v.get<std::string>().rfind("TODO", 0) == 0)
      fail(path, "still the placeholder \"" + v.get<std::string>() + "\" of `mslport new-case`: fill it in");
  }
  uint64_t as_uint(const json& v, const std::string& path, uint64_t max) {
    no_placeholder(v, path);
    if (!(v.is_number_integer() || v.is_number_unsigned())) fail(path, "expected an integer, got " + type_name(v));
    if (v.is_number_integer() && v.get<int64_t>() < 0) fail(path, "must not be negative");
    uint64_t u = v.get<uint64_t>();
    if (u > max) fail(path, "value " + std::to_string(u) + " exceeds " + std::to_string(max));
    return u;
  }
  uint64_t req_uint(const json& obj, const char* key, const std::string& path, uint64_t max) {
    return as_uint(req(obj, key, path), path, max);
  }
  double opt_nonneg(const json& obj, const char* key, const std::string& path) {
    auto it = obj.find(key);
    if (it == obj.end()) return 0;
    no_placeholder(*it, path);
    if (!it->is_number()) fail(path, "expected a number, got " + type_name(*it));
    double d = it->get<double>();
    if (!(d >= 0)) fail(path, "must be a non-negative number");
    return d;
  }
  std::array<uint32_t, 3> uint3(const json& obj, const char* key, const std::string& path) {
    const json& v = req(obj, key, path);
    if (!v.is_array() || v.empty() || v.size() > 3)
      fail(path, "expected an array of 1 to 3 positive integers, got " +
                     (v.is_array() ? "an array of " + std::to_string(v.size()) : type_name(v)));
    std::array<uint32_t, 3> out{1, 1, 1};
    for (size_t i = 0; i < v.size(); ++i) {
      std::string p = path + "[" + std::to_string(i) + "]";
      uint64_t u = as_uint(v[i], p, UINT32_MAX);
      if (u == 0) fail(p, "must be positive");
      out[i] = static_cast<uint32_t>(u);
    }
    return out;
  }

  DispatchSpec parse_dispatch(const json& d) {
    if (!d.is_object()) fail("dispatch", "expected an object, got " + type_name(d));
    bool has_tg = d.contains("threadgroups"), has_threads = d.contains("threads");
    if (has_tg && has_threads) fail("dispatch", "give either 'threadgroups' or 'threads', not both");
    if (!has_tg && !has_threads) fail("dispatch.threadgroups", "missing (or give 'dispatch.threads')");
    DispatchSpec s;
    s.threads_per_threadgroup = uint3(d, "threads_per_threadgroup", "dispatch.threads_per_threadgroup");
    uint64_t tptg_total =
        uint64_t{s.threads_per_threadgroup[0]} * s.threads_per_threadgroup[1] * s.threads_per_threadgroup[2];
    if (tptg_total > 1024)
      fail("dispatch.threads_per_threadgroup",
           std::to_string(tptg_total) + " threads per threadgroup exceeds Metal's 1024");
    if (has_tg) {
      s.dispatch_threads = false;
      s.threadgroups = uint3(d, "threadgroups", "dispatch.threadgroups");
      for (int i = 0; i < 3; ++i) {
        uint64_t g = uint64_t{s.threadgroups[i]} * s.threads_per_threadgroup[i];
        if (g > UINT32_MAX) fail("dispatch.threadgroups", "grid size overflows 32 bits");
        s.grid_threads[i] = static_cast<uint32_t>(g);
      }
    } else {
      s.dispatch_threads = true;
      s.grid_threads = uint3(d, "threads", "dispatch.threads");
      // In 64 bits: a grid near 2^32 threads must not wrap to no threadgroup.
      for (int i = 0; i < 3; ++i)
        s.threadgroups[i] = static_cast<uint32_t>((uint64_t{s.grid_threads[i]} + s.threads_per_threadgroup[i] - 1) /
                                                  s.threads_per_threadgroup[i]);
    }
    return s;
  }

  std::string resolve(const std::string& p) const {
    fs::path path(p);
    if (path.is_relative()) path = fs::path(dir_) / path;
    return path.lexically_normal().string();
  }

  NpyHeader check_npy(const std::string& abs, const std::string& field) {
    NpyHeader h;
    std::string err;
    if (!read_npy_header(abs, &h, &err)) throw CaseError{abs, "field '" + field + "' of " + file_ + ": " + err};
    return h;
  }

  BufferSpec parse_buffer(const json& b, const std::string& path) {
    if (!b.is_object()) fail(path, "expected an object, got " + type_name(b));
    BufferSpec s;
    s.index = static_cast<int>(req_uint(b, "index", path + ".index", MSLPORT_MAX_BINDINGS - 1));
    if (b.contains("argument_buffer_offset")) {
      // Metal 3 stores a buffer's 64-bit address at an 8-byte aligned offset.
      uint64_t off = req_uint(b, "argument_buffer_offset", path + ".argument_buffer_offset", uint64_t{1} << 32);
      if (off % 8)
        fail(path + ".argument_buffer_offset", "a pointer's offset is a multiple of 8, got " + std::to_string(off));
      s.argument_buffer_offset = static_cast<int64_t>(off);
    }
    s.name = opt_string(b, "name", path + ".name");
    if (s.name.empty()) s.name = "buffer" + buffer_key(s);
    std::string access = req_string(b, "access", path + ".access");
    if (access == "read") {
      s.access = Access::Read;
    } else if (access == "write") {
      s.access = Access::Write;
    } else if (access == "read_write") {
      s.access = Access::ReadWrite;
    } else {
      fail(path + ".access", "expected \"read\", \"write\" or \"read_write\", got \"" + access + "\"");
    }
    bool needs_data = s.access != Access::Write, needs_expected = s.access != Access::Read;
    if (needs_data) {
      s.data_path = resolve(req_string(b, "data", path + ".data"));
    } else if (b.contains("data")) {
      fail(path + ".data", "a write-only buffer has no initial data (use access \"read_write\")");
    }
    // An output without "expected" belongs to a case that gives inputs
    // only (checked for the whole case in parse()); a write-only one then
    // says what it holds with "dtype" and "shape".
    const bool given_expected = b.contains("expected");
    if (needs_expected && given_expected) {
      s.expected_path = resolve(req_string(b, "expected", path + ".expected"));
    } else if (!needs_expected && given_expected) {
      fail(path + ".expected", "a read-only buffer is not compared (use access \"read_write\")");
    }
    // "dtype" and "shape": required of a write-only output without
    // "expected"; elsewhere optional, and then they must say what the .npy
    // files hold (a float64 array where the kernel reads float is an error
    // here, not a wrong result later).
    const bool declare_only = s.access == Access::Write && !given_expected;
    if (declare_only && !b.contains("dtype") && !b.contains("shape"))
      fail(path + ".expected", "missing (or, in a case that gives inputs only, give \"dtype\" and \"shape\" instead)");
    char dtype_kind = 0;
    size_t dtype_size = 0;
    if (declare_only || b.contains("dtype")) {
      s.dtype = req_string(b, "dtype", path + ".dtype");
      no_placeholder(b["dtype"], path + ".dtype");
      std::string why;
      if (s.dtype.rfind("[", 0) == 0) {
        if (declare_only) fail(path + ".dtype", "a declared output has a scalar dtype (\"<f4\", \"<u4\", ...)");
        dtype_kind = 'V';
      } else if (!parse_scalar_descr(s.dtype, &dtype_kind, &dtype_size, &why)) {
        fail(path + ".dtype", why);
      }
    }
    bool has_shape = false;
    if (declare_only || b.contains("shape")) {
      has_shape = true;
      const json& shape = req(b, "shape", path + ".shape");
      no_placeholder(shape, path + ".shape");
      if (!shape.is_array() || shape.size() > 32)
        fail(path + ".shape", "expected an array of at most 32 non-negative integers");
      uint64_t bytes = std::max<uint64_t>(dtype_size, 1);
      for (size_t i = 0; i < shape.size(); ++i) {
        uint64_t dim = as_uint(shape[i], path + ".shape[" + std::to_string(i) + "]", kMaxDeclaredOutputBytes);
        if (dim != 0 && bytes > kMaxDeclaredOutputBytes / dim)
          fail(path + ".shape", "the output would exceed " + std::to_string(kMaxDeclaredOutputBytes) + " bytes");
        bytes *= dim;
        s.shape.push_back(static_cast<size_t>(dim));
      }
    }
    s.atol = opt_nonneg(b, "atol", path + ".atol");
    s.rtol = opt_nonneg(b, "rtol", path + ".rtol");
    s.tolerance_note = opt_string(b, "tolerance_note", path + ".tolerance_note");
    s.compare_as = opt_string(b, "compare_as", path + ".compare_as");
    if (!valid_compare_as(s.compare_as))
      fail(path + ".compare_as", "expected \"exact\", \"bfloat16\" or \"float16\", got \"" + s.compare_as + "\"");

    NpyHeader data_h, exp_h;
    if (needs_data) data_h = check_npy(s.data_path, path + ".data");
    if (!s.expected_path.empty()) {
      exp_h = check_npy(s.expected_path, path + ".expected");
      if ((s.compare_as == "bfloat16" || s.compare_as == "float16") && exp_h.itemsize != 2)
        fail(path + ".compare_as", "\"" + s.compare_as + "\" needs a 2-byte dtype, expected array is " + exp_h.descr);
    }
    // What the .npy files hold must be what dtype and shape say.
    for (const auto* h : {&data_h, &exp_h}) {
      if (h->kind == 0) continue;
      const std::string field = path + (h == &data_h ? ".data" : ".expected");
      if (!s.dtype.empty() && (h->kind != dtype_kind || (dtype_kind != 'V' && h->itemsize != dtype_size)))
        fail(field, "the array's dtype is " + h->descr + ", but \"dtype\" says " + s.dtype);
      if (has_shape && h->shape != s.shape) {
        auto text = [](const std::vector<size_t>& v) {
          std::string t = "[";
          for (size_t i = 0; i < v.size(); ++i) t += (i ? ", " : "") + std::to_string(v[i]);
          return t + "]";
        };
        fail(field, "the array's shape is " + text(h->shape) + ", but \"shape\" says " + text(s.shape));
      }
    }
    if (needs_data && !s.expected_path.empty()) {
      size_t db = data_h.count() * data_h.itemsize, eb = exp_h.count() * exp_h.itemsize;
      if (db != eb)
        fail(path + ".expected",
             "read_write buffer: data has " + std::to_string(db) + " bytes but expected has " + std::to_string(eb));
    }
    return s;
  }

  std::string dir_, file_;
};

}  // namespace

std::string buffer_key(const BufferSpec& b) {
  return std::to_string(b.index) + (b.argument_buffer_offset < 0 ? "" : "@" + std::to_string(b.argument_buffer_offset));
}

const char* access_name(Access a) {
  switch (a) {
    case Access::Read: return "read";
    case Access::Write: return "write";
    case Access::ReadWrite: return "read_write";
  }
  return "?";
}

bool parse_golden_case(const std::string& json_text, const std::string& dir, const std::string& file, GoldenCase* out,
                       LoadError* error) {
  json root;
  try {
    root = json::parse(json_text);
  } catch (const json::exception& e) {
    *error = LoadError{file, std::string("invalid JSON: ") + e.what()};
    return false;
  }
  try {
    CaseParser p(dir, file);
    *out = p.parse(root);
    return true;
  } catch (const CaseError& e) {
    *error = LoadError{e.file, e.message};
  } catch (const std::exception& e) {
    *error = LoadError{file, e.what()};
  }
  return false;
}

bool load_golden_case(const std::string& case_json_path, GoldenCase* out, LoadError* error) {
  std::string text, why;
  if (!read_regular_file(case_json_path, kMaxCaseJsonBytes, &text, &why)) {
    *error = LoadError{case_json_path, why};
    return false;
  }
  std::error_code ec;
  std::string dir = fs::absolute(fs::path(case_json_path), ec).parent_path().lexically_normal().string();
  return parse_golden_case(text, dir, case_json_path, out, error);
}

std::vector<GoldenCase> load_golden_dir(const std::string& root, std::vector<LoadError>* errors) {
  std::vector<GoldenCase> cases;
  std::vector<std::string> files;
  std::error_code ec;
  fs::path rp(root);
  if (fs::is_regular_file(rp, ec)) {
    files.push_back(rp.string());
  } else if (fs::is_directory(rp, ec)) {
    for (auto it = fs::recursive_directory_iterator(rp, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec) && it->path().filename() == "case.json") files.push_back(it->path().string());
    }
    if (ec && errors) errors->push_back(LoadError{root, "error while listing: " + ec.message()});
  } else {
    if (errors) errors->push_back(LoadError{root, "no such directory"});
    return cases;
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    GoldenCase c;
    LoadError e;
    if (load_golden_case(f, &c, &e)) {
      cases.push_back(std::move(c));
    } else if (errors) {
      errors->push_back(std::move(e));
    }
  }
  return cases;
}

}  // namespace mslport::runtime
