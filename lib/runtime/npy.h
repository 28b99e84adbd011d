// Reading and writing NumPy .npy files (format versions 1, 2 and 3).
//
// Supported: little-endian (or byte-order-free) scalar dtypes of kind f, i, u,
// b (e.g. <f4 <f8 <f2 <i4 <u4 <u2 <i2 <u1 <i1 <i8 <u8 |b1) and structured
// dtypes, whose bytes are kept raw (kind 'V'; itemsize from the data length).
// Fortran-ordered arrays are converted to C order on reading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mslport::runtime {

// numpy writes headers of a few hundred bytes (and, since 1.24, reads none
// over 10,000 by default); a larger length field is a damaged file.
constexpr size_t kMaxNpyHeaderBytes = 1 << 20;

struct NpyHeader {
  // The dtype: "<f4"-style for scalar dtypes; for structured dtypes the raw
  // Python literal from the header (e.g. "[('a', '<u4'), ('b', '<f4')]").
  std::string descr;
  char kind = 0;        // 'f', 'i', 'u', 'b', or 'V' (structured / raw bytes)
  size_t itemsize = 0;  // bytes per element (0 for a structured empty array)
  bool fortran_order = false;
  std::vector<size_t> shape;  // empty = 0-d array (one element)
  size_t data_offset = 0;     // where the data starts in the file

  bool structured() const { return kind == 'V'; }
  size_t count() const;  // product of shape (1 for 0-d)
};

struct NpyArray {
  std::string descr;
  char kind = 0;
  size_t itemsize = 0;
  std::vector<size_t> shape;
  std::vector<uint8_t> data;  // always C order

  size_t count() const;
  size_t nbytes() const { return data.size(); }
  bool structured() const { return kind == 'V'; }
};

// Parses a whole .npy image held in memory. On failure returns false and a
// message in *error.
bool parse_npy(const std::string& bytes, NpyArray* out, std::string* error);
// Parses the header only (magic, version, dict). `total_bytes` is the file's
// size, used to check that the data is complete and to size structured items;
// pass SIZE_MAX when unknown.
bool parse_npy_header(const std::string& bytes, size_t total_bytes, NpyHeader* out, std::string* error);

bool read_npy(const std::string& path, NpyArray* out, std::string* error);
// Reads and validates only the header of a file (cheap check for loaders).
bool read_npy_header(const std::string& path, NpyHeader* out, std::string* error);

// Serialises (version 1 header when it fits, else version 2).
std::string serialize_npy(const NpyArray& a);
bool write_npy(const std::string& path, const NpyArray& a, std::string* error);

// Scalar dtype helpers: itemsize and kind of "<f4"-style descrs; false for
// unsupported ones (big-endian, complex, strings, ...).
bool parse_scalar_descr(const std::string& descr, char* kind, size_t* itemsize, std::string* error);

template <typename T>
const char* npy_descr_of();
template <>
inline const char* npy_descr_of<float>() {
  return "<f4";
}
template <>
inline const char* npy_descr_of<double>() {
  return "<f8";
}
template <>
inline const char* npy_descr_of<int8_t>() {
  return "|i1";
}
template <>
inline const char* npy_descr_of<uint8_t>() {
  return "|u1";
}
template <>
inline const char* npy_descr_of<int16_t>() {
  return "<i2";
}
template <>
inline const char* npy_descr_of<uint16_t>() {
  return "<u2";
}
template <>
inline const char* npy_descr_of<int32_t>() {
  return "<i4";
}
template <>
inline const char* npy_descr_of<uint32_t>() {
  return "<u4";
}
template <>
inline const char* npy_descr_of<int64_t>() {
  return "<i8";
}
template <>
inline const char* npy_descr_of<uint64_t>() {
  return "<u8";
}
template <>
inline const char* npy_descr_of<bool>() {
  return "|b1";
}

// Builds an array of a scalar dtype from values (shape defaults to 1-d).
template <typename T>
NpyArray make_npy(const std::vector<T>& values, std::vector<size_t> shape = {}) {
  NpyArray a;
  a.descr = npy_descr_of<T>();
  std::string err;
  parse_scalar_descr(a.descr, &a.kind, &a.itemsize, &err);
  a.shape = shape.empty() ? std::vector<size_t>{values.size()} : std::move(shape);
  a.data.resize(values.size() * sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    T v = values[i];  // element-wise: std::vector<bool> has no data()
    std::memcpy(a.data.data() + i * sizeof(T), &v, sizeof(T));
  }
  return a;
}

// Builds an array of raw bytes with a structured dtype literal.
NpyArray make_structured_npy(const std::string& descr_literal, size_t itemsize, std::vector<size_t> shape,
                             const void* bytes);

}  // namespace mslport::runtime
