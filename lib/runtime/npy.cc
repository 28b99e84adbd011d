#include "runtime/npy.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "support/regular_file.h"

namespace mslport::runtime {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

// Element count of a shape; callers have checked (parse_shape) that it
// does not overflow.
size_t product(const std::vector<size_t>& shape) {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

// a * b, or false when it does not fit in size_t.
bool checked_mul(size_t a, size_t b, size_t* out) { return !__builtin_mul_overflow(a, b, out); }

// A tiny parser for the Python literal in the header: a dict whose values are
// strings, booleans, None, integers, tuples, lists and dicts. Only what the
// header needs is kept: for every top-level key the raw text span of its value.
class LiteralParser {
 public:
  explicit LiteralParser(const std::string& s) : s_(s) {}

  bool parse_header_dict(std::map<std::string, std::string>* out, std::string* error) {
    skip_ws();
    if (!eat('{')) return fail("header does not start with '{'", error);
    while (true) {
      skip_ws();
      if (eat('}')) break;
      std::string key;
      if (!parse_string(&key)) return fail("expected a string key in the header dict", error);
      skip_ws();
      if (!eat(':')) return fail("expected ':' after key '" + key + "'", error);
      skip_ws();
      size_t start = pos_;
      if (!skip_value()) return fail("malformed value for key '" + key + "'", error);
      (*out)[key] = s_.substr(start, pos_ - start);
      skip_ws();
      if (eat(',')) continue;
      skip_ws();
      if (eat('}')) break;
      return fail("expected ',' or '}' in the header dict", error);
    }
    skip_ws();
    if (pos_ != s_.size()) return fail("trailing characters after the header dict", error);
    return true;
  }

  // Parses a quoted Python string starting at the current position.
  bool parse_string(std::string* out) {
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) return false;
    char q = s_[pos_++];
    out->clear();
    while (pos_ < s_.size() && s_[pos_] != q) {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      out->push_back(s_[pos_++]);
    }
    if (pos_ >= s_.size()) return false;
    ++pos_;
    return true;
  }

 private:
  bool fail(const std::string& m, std::string* error) {
    *error = m + " (at offset " + std::to_string(pos_) + ")";
    return false;
  }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool skip_value(int depth = 0) {
    if (depth > 64) return false;
    skip_ws();
    if (pos_ >= s_.size()) return false;
    char c = s_[pos_];
    if (c == '\'' || c == '"') {
      std::string tmp;
      return parse_string(&tmp);
    }
    if (c == '(' || c == '[' || c == '{') {
      char close = c == '(' ? ')' : c == '[' ? ']' : '}';
      ++pos_;
      while (true) {
        skip_ws();
        if (eat(close)) return true;
        if (!skip_value(depth + 1)) return false;
        skip_ws();
        if (c == '{') {
          if (!eat(':')) return false;
          if (!skip_value(depth + 1)) return false;
          skip_ws();
        }
        if (eat(',')) continue;
        skip_ws();
        if (eat(close)) return true;
        return false;
      }
    }
    // Bare word or number.
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' ||
                                s_[pos_] == '-' || s_[pos_] == '+' || s_[pos_] == '.'))
      ++pos_;
    return pos_ > start;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool parse_shape(const std::string& text, std::vector<size_t>* shape, std::string* error) {
  std::string t = trim(text);
  if (t.size() < 2 || t.front() != '(' || t.back() != ')') {
    *error = "'shape' is not a tuple: " + t;
    return false;
  }
  shape->clear();
  std::string inner = t.substr(1, t.size() - 2);
  std::stringstream ss(inner);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;  // trailing comma: "(3,)"
    // numpy may write "3L" in Python 2 files.
    if (item.back() == 'L') item.pop_back();
    if (item.empty() || !std::all_of(item.begin(), item.end(), [](char c) { return std::isdigit((unsigned char)c); })) {
      *error = "'shape' has a non-integer entry: " + item;
      return false;
    }
    size_t d = 0;
    for (char c : item) {
      if (!checked_mul(d, 10, &d) || __builtin_add_overflow(d, size_t(c - '0'), &d)) {
        *error = "'shape' entry " + item + " does not fit in 64 bits";
        return false;
      }
    }
    shape->push_back(d);
  }
  // The element count, and with it every size computed from the shape,
  // must fit in 64 bits.
  size_t n = 1;
  for (size_t d : *shape) {
    if (!checked_mul(n, d, &n)) {
      *error = "'shape' " + t + " has more than 2^64 elements";
      return false;
    }
  }
  return true;
}

// Reorders a Fortran-ordered array into C order.
std::vector<uint8_t> fortran_to_c(const std::vector<uint8_t>& in, const std::vector<size_t>& shape, size_t itemsize) {
  const size_t n = product(shape), nd = shape.size();
  std::vector<uint8_t> out(in.size());
  // Walk the source in Fortran order (first dimension fastest), keeping the
  // multi-index, and place each element at its C-order offset.
  std::vector<size_t> idx(nd + 1, 0);
  for (size_t f = 0; f < n; ++f) {
    size_t c = 0;
    for (size_t d = 0; d < nd; ++d) c = c * shape[d] + idx[d];
    std::memcpy(&out[c * itemsize], &in[f * itemsize], itemsize);
    for (size_t d = 0; d < nd; ++d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// Regular files only: a .npy path naming /dev/zero or a FIFO must be an
// error, not a read that never ends.
bool read_file_bytes(const std::string& path, std::string* out, size_t limit, std::string* error) {
  return read_regular_file_prefix(path, limit, out, error);
}

}  // namespace

size_t NpyHeader::count() const { return product(shape); }
size_t NpyArray::count() const { return product(shape); }

bool parse_scalar_descr(const std::string& descr, char* kind, size_t* itemsize, std::string* error) {
  if (descr.size() < 3) {
    *error = "unsupported dtype '" + descr + "'";
    return false;
  }
  char order = descr[0];
  char k = descr[1];
  std::string digits = descr.substr(2);
  // No dtype has an item of more than 6 digits of bytes; longer would not
  // even convert.
  if (digits.empty() || digits.size() > 6 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit((unsigned char)c); })) {
    *error = "unsupported dtype '" + descr + "'";
    return false;
  }
  size_t size = std::stoul(digits);
  if (k != 'f' && k != 'i' && k != 'u' && k != 'b' && k != 'V') {
    *error = "unsupported dtype '" + descr + "' (kind '" + std::string(1, k) + "')";
    return false;
  }
  if (order == '>' && size > 1) {
    *error = "big-endian dtype '" + descr + "' is not supported";
    return false;
  }
  if (order != '<' && order != '|' && order != '=' && order != '>') {
    *error = "unsupported dtype '" + descr + "'";
    return false;
  }
  bool ok_size = (k == 'f' && (size == 2 || size == 4 || size == 8)) ||
                 ((k == 'i' || k == 'u') && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                 (k == 'b' && size == 1) || (k == 'V' && size > 0);
  if (!ok_size) {
    *error = "unsupported dtype '" + descr + "' (item size)";
    return false;
  }
  *kind = k;
  *itemsize = size;
  return true;
}

bool parse_npy_header(const std::string& bytes, size_t total_bytes, NpyHeader* out, std::string* error) {
  if (bytes.size() < kMagicLen + 4 || bytes.compare(0, kMagicLen, kMagic, kMagicLen) != 0) {
    *error = "not a .npy file (bad magic)";
    return false;
  }
  uint8_t major = static_cast<uint8_t>(bytes[6]);
  const std::string version = std::to_string(major) + "." + std::to_string(static_cast<uint8_t>(bytes[7]));
  size_t header_len = 0, prefix = 0;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      *error = "truncated .npy file: a version " + version + " header starts with 12 bytes, the file has " +
               std::to_string(bytes.size());
      return false;
    }
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    prefix = 12;
  } else {
    *error = "unsupported .npy format version " + version + " (mslport reads versions 1.0, 2.0 and 3.0)";
    return false;
  }
  if (header_len > kMaxNpyHeaderBytes) {
    *error = "the .npy header length field (format version " + version + ") says " + std::to_string(header_len) +
             " bytes, more than the " + std::to_string(kMaxNpyHeaderBytes) + " mslport reads";
    return false;
  }
  if (bytes.size() < prefix + header_len) {
    *error = "truncated .npy header: its length field (format version " + version + ", " + std::to_string(prefix - 8) +
             " bytes) says " + std::to_string(header_len) + " bytes, the file has " +
             std::to_string(bytes.size() - std::min(bytes.size(), prefix)) + " after the " + std::to_string(prefix) +
             "-byte prefix";
    return false;
  }
  std::string header = bytes.substr(prefix, header_len);
  std::map<std::string, std::string> dict;
  LiteralParser p(header);
  if (!p.parse_header_dict(&dict, error)) {
    *error = "malformed .npy header: " + *error;
    return false;
  }
  for (const char* key : {"descr", "fortran_order", "shape"}) {
    if (!dict.count(key)) {
      *error = std::string("malformed .npy header: missing '") + key + "'";
      return false;
    }
  }
  NpyHeader h;
  h.data_offset = prefix + header_len;
  std::string descr_text = trim(dict["descr"]);
  if (!descr_text.empty() && (descr_text[0] == '\'' || descr_text[0] == '"')) {
    LiteralParser sp(descr_text);
    if (!sp.parse_string(&h.descr)) {
      *error = "malformed .npy header: bad 'descr'";
      return false;
    }
    if (!parse_scalar_descr(h.descr, &h.kind, &h.itemsize, error)) return false;
  } else if (!descr_text.empty() && (descr_text[0] == '[' || descr_text[0] == '{')) {
    h.descr = descr_text;
    h.kind = 'V';
    h.itemsize = 0;  // from the data length below
  } else {
    *error = "malformed .npy header: bad 'descr' " + descr_text;
    return false;
  }
  std::string fo = trim(dict["fortran_order"]);
  if (fo == "True") {
    h.fortran_order = true;
  } else if (fo == "False") {
    h.fortran_order = false;
  } else {
    *error = "malformed .npy header: bad 'fortran_order' " + fo;
    return false;
  }
  if (!parse_shape(dict["shape"], &h.shape, error)) {
    *error = "malformed .npy header: " + *error;
    return false;
  }
  size_t n = h.count();
  if (total_bytes != SIZE_MAX) {
    if (total_bytes < h.data_offset) {
      *error = "truncated .npy file";
      return false;
    }
    size_t data_bytes = total_bytes - h.data_offset;
    if (h.kind == 'V' && h.itemsize == 0) {
      if (n == 0) {
        h.itemsize = 0;
      } else if (data_bytes % n != 0 || data_bytes == 0) {
        *error = "structured .npy data size " + std::to_string(data_bytes) +
                 " is not a multiple of the element count " + std::to_string(n);
        return false;
      } else {
        h.itemsize = data_bytes / n;
      }
    }
    size_t want = 0;
    if (!checked_mul(n, h.itemsize, &want)) {
      *error = "the .npy shape has more than 2^64 bytes of data";
      return false;
    }
    if (data_bytes < want) {
      *error =
          "truncated .npy data: expected " + std::to_string(want) + " bytes, file has " + std::to_string(data_bytes);
      return false;
    }
  } else if (size_t want = 0; !checked_mul(n, h.itemsize, &want)) {
    *error = "the .npy shape has more than 2^64 bytes of data";
    return false;
  }
  *out = std::move(h);
  return true;
}

bool parse_npy(const std::string& bytes, NpyArray* out, std::string* error) {
  NpyHeader h;
  if (!parse_npy_header(bytes, bytes.size(), &h, error)) return false;
  NpyArray a;
  a.descr = h.descr;
  a.kind = h.kind;
  a.itemsize = h.itemsize;
  a.shape = h.shape;
  size_t nbytes = h.count() * h.itemsize;
  a.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(h.data_offset),
                bytes.begin() + static_cast<std::ptrdiff_t>(h.data_offset + nbytes));
  if (h.fortran_order && h.shape.size() > 1) a.data = fortran_to_c(a.data, a.shape, a.itemsize);
  *out = std::move(a);
  return true;
}

bool read_npy(const std::string& path, NpyArray* out, std::string* error) {
  std::string bytes;
  if (!read_file_bytes(path, &bytes, SIZE_MAX, error)) return false;
  if (!parse_npy(bytes, out, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

bool read_npy_header(const std::string& path, NpyHeader* out, std::string* error) {
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    *error = "cannot open " + path + ": " + ec.message();
    return false;
  }
  std::string bytes;
  // Headers are small; read a generous prefix, then the rest if needed.
  if (!read_file_bytes(path, &bytes, 1 << 16, error)) return false;
  if (bytes.size() >= 12 && bytes.compare(0, kMagicLen, kMagic, kMagicLen) == 0 && bytes[6] != 1) {
    size_t hl = 0;
    for (int i = 0; i < 4; ++i) hl |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    if (hl + 12 > bytes.size() && hl + 12 <= size && hl <= kMaxNpyHeaderBytes) {
      if (!read_file_bytes(path, &bytes, hl + 12, error)) return false;
    }
  }
  if (!parse_npy_header(bytes, static_cast<size_t>(size), out, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

std::string serialize_npy(const NpyArray& a) {
  std::string descr =
      a.structured() && !a.descr.empty() && (a.descr[0] == '[' || a.descr[0] == '{') ? a.descr : "'" + a.descr + "'";
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) {
    shape += std::to_string(a.shape[i]);
    shape += (a.shape.size() == 1 || i + 1 < a.shape.size()) ? "," : "";
    if (i + 1 < a.shape.size()) shape += " ";
  }
  shape += ")";
  std::string dict = "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that magic + len + dict + '\n' is a multiple of 64.
  size_t prefix = 10;
  int version = 1;
  size_t total = prefix + dict.size() + 1;
  if (total + 63 > 0xFFFF + prefix) {
    version = 2;
    prefix = 12;
    total = prefix + dict.size() + 1;
  }
  size_t pad = (64 - total % 64) % 64;
  dict.append(pad, ' ');
  dict.push_back('\n');
  std::string out(kMagic, kMagicLen);
  out.push_back(static_cast<char>(version));
  out.push_back(0);
  size_t hl = dict.size();
  if (version == 1) {
    out.push_back(static_cast<char>(hl & 0xFF));
    out.push_back(static_cast<char>((hl >> 8) & 0xFF));
  } else {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((hl >> (8 * i)) & 0xFF));
  }
  out += dict;
  out.append(reinterpret_cast<const char*>(a.data.data()), a.data.size());
  return out;
}

bool write_npy(const std::string& path, const NpyArray& a, std::string* error) {
  std::string bytes = serialize_npy(a);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) {
    *error = "cannot write " + path;
    return false;
  }
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) {
    *error = "error writing " + path;
    return false;
  }
  return true;
}

NpyArray make_structured_npy(const std::string& descr_literal, size_t itemsize, std::vector<size_t> shape,
                             const void* bytes) {
  NpyArray a;
  a.descr = descr_literal;
  a.kind = 'V';
  a.itemsize = itemsize;
  a.shape = std::move(shape);
  a.data.resize(a.count() * itemsize);
  if (!a.data.empty()) std::memcpy(a.data.data(), bytes, a.data.size());
  return a;
}

}  // namespace mslport::runtime
