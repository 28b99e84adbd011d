#include "runtime/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace mslport::runtime {

namespace {

constexpr size_t kMaxReported = kMaxReportedMismatches;
constexpr double kRelFloor = 1e-30;

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

std::vector<size_t> unflatten(size_t flat, const std::vector<size_t>& shape) {
  if (shape.size() <= 1) return {flat};
  std::vector<size_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    size_t dim = shape[d] == 0 ? 1 : shape[d];
    idx[d] = flat % dim;
    flat /= dim;
  }
  return idx;
}

std::string index_string(const std::vector<size_t>& idx) {
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) {
    if (d) s += ", ";
    s += std::to_string(idx[d]);
  }
  return s + "]";
}

std::string fmt_double(double v) {
  if (std::isnan(v)) return "nan";  // the sign is in the hex bytes beside it
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string hex_bytes(const uint8_t* p, size_t n) {
  std::string s = "0x";
  char buf[4];
  for (size_t i = n; i-- > 0;) {  // little-endian: print most significant first
    std::snprintf(buf, sizeof buf, "%02x", p[i]);
    s += buf;
  }
  return s;
}

enum class Mode { Float, Signed, Unsigned, Bytes };

struct Reporter {
  std::string name;
  const std::vector<size_t>* shape;
  CompareResult* result;
  std::string detail;
  size_t reported = 0;
  // `got` and `exp` as the message shows them; `got_value` and `exp_value`
  // as the structured fields keep them (a number, "nan", "inf", 0x...).
  void add(size_t i, const std::string& got, const std::string& exp, const std::string& got_value,
           const std::string& exp_value) {
    if (reported++ >= kMaxReported) return;
    std::vector<size_t> idx = unflatten(i, *shape);
    detail += "\n    " + name + index_string(idx) + ": got " + got + ", expected " + exp;
    result->first_index.push_back(std::move(idx));
    result->first_got.push_back(got_value);
    result->first_expected.push_back(exp_value);
  }
  void add(size_t i, const std::string& got, const std::string& exp) { add(i, got, exp, got, exp); }
};

std::string value_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void update_err(CompareResult* r, double abs_err, double exp) {
  double rel = abs_err / std::max(std::fabs(exp), kRelFloor);
  if (std::isnan(abs_err)) abs_err = rel = std::numeric_limits<double>::infinity();
  if (std::isnan(rel)) rel = std::numeric_limits<double>::infinity();
  r->max_abs_err = std::max(r->max_abs_err, abs_err);
  r->max_rel_err = std::max(r->max_rel_err, rel);
}

}  // namespace

float half_to_float(uint16_t h) {
  uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
  float v;
  if (exp == 0) {
    v = std::ldexp(static_cast<float>(mant), -24);
  } else if (exp == 31) {
    v = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else {
    v = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
  }
  return sign ? -v : v;
}

float bfloat16_to_float(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

bool valid_compare_as(const std::string& c) { return c.empty() || c == "exact" || c == "bfloat16" || c == "float16"; }

CompareResult compare_output(const NpyArray& expected, const void* got_ptr, size_t got_bytes, double atol, double rtol,
                             const std::string& compare_as, const std::string& name) {
  CompareResult r;
  const auto* got = static_cast<const uint8_t*>(got_ptr);
  const uint8_t* exp = expected.data.data();
  if (got_bytes != expected.nbytes()) {
    r.pass = false;
    r.message =
        name + ": output has " + std::to_string(got_bytes) + " bytes, expected " + std::to_string(expected.nbytes());
    return r;
  }
  if (!valid_compare_as(compare_as)) {
    r.pass = false;
    r.message = name + ": unknown compare_as '" + compare_as + "'";
    return r;
  }
  size_t isz = expected.itemsize;
  size_t n = expected.count();
  r.count = n;
  Reporter rep{name, &expected.shape, &r, "", 0};

  Mode mode;
  char kind = expected.kind;
  if (compare_as == "exact" || kind == 'V' || kind == 'b') {
    mode = Mode::Bytes;
  } else if (compare_as == "bfloat16" || compare_as == "float16") {
    if (isz != 2) {
      r.pass = false;
      r.message = name + ": compare_as '" + compare_as + "' needs a 2-byte dtype, expected array is " + expected.descr;
      return r;
    }
    mode = Mode::Float;
  } else if (kind == 'f') {
    mode = Mode::Float;
  } else if (kind == 'i') {
    mode = Mode::Signed;
  } else {
    mode = Mode::Unsigned;
  }

  auto as_double = [&](const uint8_t* p) -> double {
    if (compare_as == "bfloat16") return bfloat16_to_float(load<uint16_t>(p));
    if (compare_as == "float16" || isz == 2) return half_to_float(load<uint16_t>(p));
    if (isz == 4) return load<float>(p);
    return load<double>(p);
  };
  auto as_signed = [&](const uint8_t* p) -> int64_t {
    switch (isz) {
      case 1: return load<int8_t>(p);
      case 2: return load<int16_t>(p);
      case 4: return load<int32_t>(p);
      default: return load<int64_t>(p);
    }
  };
  auto as_unsigned = [&](const uint8_t* p) -> uint64_t {
    switch (isz) {
      case 1: return load<uint8_t>(p);
      case 2: return load<uint16_t>(p);
      case 4: return load<uint32_t>(p);
      default: return load<uint64_t>(p);
    }
  };

  for (size_t i = 0; i < n; ++i) {
    const uint8_t* g = got + i * isz;
    const uint8_t* e = exp + i * isz;
    bool ok = true;
    switch (mode) {
      case Mode::Float: {
        double gv = as_double(g), ev = as_double(e);
        if (std::isnan(ev)) {
          ok = std::isnan(gv);
          if (!ok) update_err(&r, std::numeric_limits<double>::infinity(), 0);
        } else if (std::isnan(gv)) {
          ok = false;
          update_err(&r, std::numeric_limits<double>::infinity(), ev);
        } else if (std::isinf(ev) || std::isinf(gv)) {
          ok = gv == ev;
          if (!ok) update_err(&r, std::numeric_limits<double>::infinity(), ev);
        } else {
          double d = std::fabs(gv - ev);
          ok = d <= atol + rtol * std::fabs(ev);
          update_err(&r, d, ev);
        }
        if (!ok)
          rep.add(i, fmt_double(gv) + " (" + hex_bytes(g, isz) + ")", fmt_double(ev) + " (" + hex_bytes(e, isz) + ")",
                  value_text(gv), value_text(ev));
        break;
      }
      case Mode::Signed: {
        int64_t gv = as_signed(g), ev = as_signed(e);
        ok = gv == ev;
        double d = std::fabs(static_cast<double>(gv) - static_cast<double>(ev));
        update_err(&r, d, static_cast<double>(ev));
        if (!ok) rep.add(i, std::to_string(gv), std::to_string(ev));
        break;
      }
      case Mode::Unsigned: {
        uint64_t gv = as_unsigned(g), ev = as_unsigned(e);
        ok = gv == ev;
        double d = std::fabs(static_cast<double>(gv) - static_cast<double>(ev));
        update_err(&r, d, static_cast<double>(ev));
        if (!ok)
          rep.add(i, std::to_string(gv) + " (" + hex_bytes(g, isz) + ")",
                  std::to_string(ev) + " (" + hex_bytes(e, isz) + ")", std::to_string(gv), std::to_string(ev));
        break;
      }
      case Mode::Bytes: {
        ok = std::memcmp(g, e, isz) == 0;
        if (!ok) {
          update_err(&r, std::numeric_limits<double>::infinity(), 0);
          rep.add(i, hex_bytes(g, isz), hex_bytes(e, isz));
        }
        break;
      }
    }
    if (!ok) ++r.mismatches;
  }
  r.compare = mode == Mode::Float ? "tolerance" : mode == Mode::Bytes ? "bytes" : "exact";
  if (r.mismatches) {
    r.pass = false;
    std::string tol;
    if (mode == Mode::Float) tol = " (atol " + fmt_double(atol) + ", rtol " + fmt_double(rtol) + ")";
    else tol = mode == Mode::Bytes ? " (exact, bytewise)" : " (exact)";
    r.message = name + ": " + std::to_string(r.mismatches) + " of " + std::to_string(n) + " elements differ" + tol +
                "; first:" + rep.detail;
    if (r.mismatches > kMaxReported) r.message += "\n    ...";
  }
  return r;
}

}  // namespace mslport::runtime
