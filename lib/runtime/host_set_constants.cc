#include "runtime/host_set_constants.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "runtime/runner.h"

namespace mslport::runtime {
namespace {

template <class T>
void append(std::vector<uint8_t>* out, T v) {
  uint8_t b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  out->insert(out->end(), b, b + sizeof v);
}

// IEEE binary16 bits of f, rounded to nearest even (as Metal's conversions).
uint16_t half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0));
  int e = int(exp) - 127 + 15;
  if (e >= 31) return uint16_t(sign | 0x7c00u);
  if (e <= 0) {  // subnormal or zero
    if (e < -10) return uint16_t(sign);
    mant |= 0x800000u;
    const int shift = 14 - e;
    uint32_t h = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1))) ++h;
    return uint16_t(sign | h);
  }
  uint32_t h = (uint32_t(e) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;  // may carry into the exponent: still right
  return uint16_t(sign | h);
}

uint16_t bfloat_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);  // NaN stays NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}

}  // namespace

std::optional<std::string> case_value(const std::map<std::string, std::string>& values, const HostSetConstant& k) {
  if (auto it = values.find(k.name); it != values.end()) return it->second;
  if (auto it = values.find(std::to_string(k.index)); it != values.end()) return it->second;
  return std::nullopt;
}

bool case_runs_on(const GoldenCase& c, const Executor& e) {
  if (!e.has_kernel(c.kernel)) return false;
  const std::vector<HostSetConstant> host_set = e.host_set_constants(c.kernel);
  auto set_at_dispatch = [&](const std::string& key) {
    for (const auto& k : host_set)
      if (k.name == key || std::to_string(k.index) == key) return true;
    return false;
  };
  std::map<std::string, std::string> fixed;
  for (const auto& [key, value] : c.function_constants)
    if (!set_at_dispatch(key)) fixed.emplace(key, value);
  return fixed == e.function_constants();
}

std::vector<uint8_t> constant_bytes(const HostSetConstant& k, const std::string& value, bool opencl) {
  auto fail = [&](const std::string& why) -> std::vector<uint8_t> {
    throw std::runtime_error("function constant '" + k.name + "' [[function_constant(" + std::to_string(k.index) +
                             ")]] of type " + k.type + ": " + why);
  };
  const bool is_bool_text = value == "true" || value == "false";
  const bool is_float_text = !is_bool_text && value.find_first_of(".eEn") != std::string::npos;
  std::vector<uint8_t> out;
  if (k.type == "bool") {
    if (!is_bool_text) return fail("expected true or false, got " + value);
    append<uint8_t>(&out, value == "true" ? 1 : 0);
    return out;
  }
  if (is_bool_text) return fail("expected a number, got " + value);
  if (k.type == "float" || k.type == "half" || k.type == "bfloat") {
    double d = 0;
    try {
      d = std::stod(value);
    } catch (const std::exception&) {
      return fail("expected a number, got " + value);
    }
    const float f = float(d);
    if (opencl || k.type == "float") append<float>(&out, f);
    else append<uint16_t>(&out, k.type == "half" ? half_bits(f) : bfloat_bits(f));
    return out;
  }
  if (is_float_text) return fail("expected an integer, got " + value);
  struct Int {
    const char* name;
    int bytes;
    bool is_signed;
  };
  static const Int kInts[] = {{"char", 1, true}, {"uchar", 1, false}, {"short", 2, true}, {"ushort", 2, false},
                              {"int", 4, true},  {"uint", 4, false},  {"long", 8, true},  {"ulong", 8, false}};
  for (const Int& t : kInts) {
    if (k.type != t.name) continue;
    try {
      size_t used = 0;
      if (t.is_signed) {
        const long long v = std::stoll(value, &used);
        const int bits = t.bytes * 8;
        if (bits < 64 && (v < -(1LL << (bits - 1)) || v > (1LL << (bits - 1)) - 1))
          return fail(value + " is out of its range");
        for (int b = 0; b < t.bytes; ++b) out.push_back(uint8_t(uint64_t(v) >> (8 * b)));
      } else {
        if (!value.empty() && value[0] == '-') return fail(value + " is out of its range");
        const unsigned long long v = std::stoull(value, &used);
        if (t.bytes < 8 && (v >> (t.bytes * 8))) return fail(value + " is out of its range");
        for (int b = 0; b < t.bytes; ++b) out.push_back(uint8_t(v >> (8 * b)));
      }
      if (used != value.size()) return fail("expected an integer, got " + value);
    } catch (const std::exception&) {
      return fail("expected an integer, got " + value);
    }
    return out;
  }
  return fail("a function constant of this type cannot be set at dispatch");
}

std::vector<uint8_t> dispatch_bytes(const GoldenCase& c, const HostSetConstant& k, bool opencl) {
  auto v = case_value(c.function_constants, k);
  if (!v)
    throw std::runtime_error("kernel '" + c.kernel + "' reads function constant '" + k.name + "' [[function_constant(" +
                             std::to_string(k.index) +
                             ")]], which the host sets, but the case gives it no value (\"function_constants\")");
  return constant_bytes(k, *v, opencl);
}

}  // namespace mslport::runtime
