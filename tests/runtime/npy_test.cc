#include "runtime/npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "runtime_test_util.h"

namespace mslport::runtime {
namespace {

// Builds a .npy image by hand: magic, version, little-endian header length,
// header text (padded with spaces and a final newline), data.
std::string hand_npy(int version, std::string header, const void* data, size_t n) {
  size_t prefix = version == 1 ? 10 : 12;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY", 6);
  out.push_back(static_cast<char>(version));
  out.push_back(0);
  size_t hl = header.size();
  for (size_t i = 0; i < (version == 1 ? 2u : 4u); ++i) out.push_back(static_cast<char>((hl >> (8 * i)) & 0xFF));
  out += header;
  out.append(static_cast<const char*>(data), n);
  return out;
}

template <typename T>
void expect_round_trip(const std::vector<T>& values, std::vector<size_t> shape, const std::string& descr) {
  NpyArray a = make_npy(values, shape);
  EXPECT_EQ(a.descr, descr);
  std::string bytes = serialize_npy(a);
  // Header (magic + length + dict) is padded to a multiple of 64 bytes.
  EXPECT_EQ((bytes.size() - a.nbytes()) % 64, 0u) << descr;
  NpyArray b;
  std::string err;
  ASSERT_TRUE(parse_npy(bytes, &b, &err)) << descr << ": " << err;
  EXPECT_EQ(b.descr, descr);
  EXPECT_EQ(b.itemsize, sizeof(T));
  EXPECT_EQ(b.shape, a.shape);
  EXPECT_EQ(b.data, a.data);
}

TEST(Npy, RoundTripsEveryScalarDtype) {
  expect_round_trip<float>({1.5f, -2.0f, NAN}, {3}, "<f4");
  expect_round_trip<double>({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3}, "<f8");
  expect_round_trip<int32_t>({-1, 2, 3, 4}, {2, 2}, "<i4");
  expect_round_trip<uint32_t>({0xFFFFFFFFu, 7}, {2}, "<u4");
  expect_round_trip<uint16_t>({0x3F80, 0xBF80}, {2}, "<u2");
  expect_round_trip<int16_t>({-5, 5}, {2}, "<i2");
  expect_round_trip<uint8_t>({1, 2, 255}, {3}, "|u1");
  expect_round_trip<int8_t>({-128, 127}, {2}, "|i1");
  expect_round_trip<int64_t>({-(1ll << 40)}, {1}, "<i8");
  expect_round_trip<uint64_t>({1ull << 63}, {1}, "<u8");
  expect_round_trip<bool>({true, false, true}, {3}, "|b1");
}

TEST(Npy, RoundTripsZeroDimAndEmptyArrays) {
  NpyArray a = make_npy<uint32_t>({42}, {1});
  a.shape.clear();  // 0-d: one element
  NpyArray b;
  std::string err;
  ASSERT_TRUE(parse_npy(serialize_npy(a), &b, &err)) << err;
  EXPECT_TRUE(b.shape.empty());
  EXPECT_EQ(b.count(), 1u);
  uint32_t v;
  std::memcpy(&v, b.data.data(), 4);
  EXPECT_EQ(v, 42u);

  NpyArray e = make_npy<float>({}, {0, 4});
  ASSERT_TRUE(parse_npy(serialize_npy(e), &b, &err)) << err;
  EXPECT_EQ(b.count(), 0u);
  EXPECT_EQ(b.shape, (std::vector<size_t>{0, 4}));
}

TEST(Npy, WritesAndReadsFiles) {
  std::string dir = testutil::fresh_dir("npy");
  NpyArray a = make_npy<float>({1, 2, 3, 4, 5, 6}, {3, 2});
  testutil::write_array(dir + "/a.npy", a);
  NpyArray b;
  std::string err;
  ASSERT_TRUE(read_npy(dir + "/a.npy", &b, &err)) << err;
  EXPECT_EQ(b.data, a.data);
  NpyHeader h;
  ASSERT_TRUE(read_npy_header(dir + "/a.npy", &h, &err)) << err;
  EXPECT_EQ(h.descr, "<f4");
  EXPECT_EQ(h.shape, (std::vector<size_t>{3, 2}));
  EXPECT_FALSE(read_npy(dir + "/missing.npy", &b, &err));
  EXPECT_NE(err.find("missing.npy"), std::string::npos) << err;
}

TEST(Npy, ParsesHandWrittenVersion1Header) {
  int32_t data[6] = {0, 1, 2, 3, 4, 5};
  std::string bytes = hand_npy(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", data, sizeof data);
  NpyArray a;
  std::string err;
  ASSERT_TRUE(parse_npy(bytes, &a, &err)) << err;
  EXPECT_EQ(a.kind, 'i');
  EXPECT_EQ(a.itemsize, 4u);
  EXPECT_EQ(a.shape, (std::vector<size_t>{2, 3}));
  EXPECT_EQ(0, std::memcmp(a.data.data(), data, sizeof data));
}

TEST(Npy, ParsesVersion2HeaderWithOtherKeyOrderAndQuotes) {
  double data[2] = {0.25, -8};
  std::string bytes = hand_npy(2, "{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<f8\"}", data, sizeof data);
  NpyArray a;
  std::string err;
  ASSERT_TRUE(parse_npy(bytes, &a, &err)) << err;
  EXPECT_EQ(a.descr, "<f8");
  EXPECT_EQ(a.shape, (std::vector<size_t>{2}));
  double got[2];
  std::memcpy(got, a.data.data(), sizeof got);
  EXPECT_EQ(got[0], 0.25);
  EXPECT_EQ(got[1], -8);
}

TEST(Npy, ConvertsFortranOrderToCOrder) {
  // C-order [[0,1,2],[3,4,5]] stored column-major: 0,3,1,4,2,5.
  uint16_t data[6] = {0, 3, 1, 4, 2, 5};
  std::string bytes = hand_npy(1, "{'descr': '<u2', 'fortran_order': True, 'shape': (2, 3), }", data, sizeof data);
  NpyArray a;
  std::string err;
  ASSERT_TRUE(parse_npy(bytes, &a, &err)) << err;
  uint16_t got[6];
  std::memcpy(got, a.data.data(), sizeof got);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], i);
}

TEST(Npy, KeepsStructuredDtypesAsRawBytes) {
  // A Metal `constant` struct {uint n; float scale; uint pad[2];} as one element.
  struct P {
    uint32_t n;
    float scale;
    uint32_t pad[2];
  } p{300, 0.5f, {0, 0}};
  std::string descr = "[('n', '<u4'), ('scale', '<f4'), ('pad', '<u4', (2,))]";
  std::string bytes = hand_npy(1, "{'descr': " + descr + ", 'fortran_order': False, 'shape': (1,), }", &p, sizeof p);
  NpyArray a;
  std::string err;
  ASSERT_TRUE(parse_npy(bytes, &a, &err)) << err;
  EXPECT_TRUE(a.structured());
  EXPECT_EQ(a.itemsize, sizeof p);
  EXPECT_EQ(a.descr, descr);
  ASSERT_EQ(a.nbytes(), sizeof p);
  EXPECT_EQ(0, std::memcmp(a.data.data(), &p, sizeof p));

  // Dict-form descr with explicit offsets, 0-d.
  std::string descr2 = "{'names': ['a'], 'formats': ['<u4'], 'offsets': [0], 'itemsize': 16}";
  uint8_t raw[16] = {1};
  bytes = hand_npy(1, "{'descr': " + descr2 + ", 'fortran_order': False, 'shape': (), }", raw, sizeof raw);
  ASSERT_TRUE(parse_npy(bytes, &a, &err)) << err;
  EXPECT_EQ(a.itemsize, 16u);
  EXPECT_EQ(a.count(), 1u);

  // Serialising keeps the literal descr.
  NpyArray s = make_structured_npy(descr, sizeof p, {1}, &p);
  NpyArray back;
  ASSERT_TRUE(parse_npy(serialize_npy(s), &back, &err)) << err;
  EXPECT_EQ(back.descr, descr);
  EXPECT_EQ(back.data, s.data);
}

TEST(Npy, RejectsMalformedFiles) {
  float data[2] = {1, 2};
  NpyArray a;
  std::string err;
  EXPECT_FALSE(parse_npy("not an npy file at all", &a, &err));
  EXPECT_NE(err.find("magic"), std::string::npos) << err;

  std::string trunc = hand_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", data, sizeof data);
  EXPECT_FALSE(parse_npy(trunc, &a, &err));
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;

  std::string be = hand_npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", data, sizeof data);
  EXPECT_FALSE(parse_npy(be, &a, &err));
  EXPECT_NE(err.find("big-endian"), std::string::npos) << err;

  std::string nokey = hand_npy(1, "{'descr': '<f4', 'shape': (2,), }", data, sizeof data);
  EXPECT_FALSE(parse_npy(nokey, &a, &err));
  EXPECT_NE(err.find("fortran_order"), std::string::npos) << err;

  std::string cplx = hand_npy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", data, sizeof data);
  EXPECT_FALSE(parse_npy(cplx, &a, &err));
  EXPECT_NE(err.find("<c8"), std::string::npos) << err;

  std::string badshape = hand_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (x,), }", data, sizeof data);
  EXPECT_FALSE(parse_npy(badshape, &a, &err));
  EXPECT_NE(err.find("shape"), std::string::npos) << err;
}

}  // namespace
// Sizes from a header are checked before any arithmetic uses them.
TEST(Npy, HugeShapesAndItemSizesAreErrorsNotOverflows) {
  std::string err;
  NpyArray a;
  std::string bytes =
      hand_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }", nullptr, 0);
  EXPECT_FALSE(parse_npy(bytes, &a, &err));
  EXPECT_NE(err.find("more than 2^64"), std::string::npos) << err;
  bytes = hand_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }", nullptr, 0);
  EXPECT_FALSE(parse_npy(bytes, &a, &err));
  EXPECT_NE(err.find("does not fit in 64 bits"), std::string::npos) << err;
  // 2^62 elements of 8 bytes: the element count fits, the byte count not.
  bytes = hand_npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }", nullptr, 0);
  EXPECT_FALSE(parse_npy(bytes, &a, &err));
  EXPECT_NE(err.find("2^64 bytes"), std::string::npos) << err;
  // An item size with more digits than any number converts (std::stoul threw).
  bytes = hand_npy(1, "{'descr': '<f99999999999999999999', 'fortran_order': False, 'shape': (1,), }", nullptr, 0);
  EXPECT_FALSE(parse_npy(bytes, &a, &err));
  EXPECT_NE(err.find("unsupported dtype"), std::string::npos) << err;
}

// The header length field's width depends on the version; a message about a
// short file says which version and field it read.
TEST(Npy, VersionMismatchesSayWhatWasRead) {
  float v[2] = {1, 2};
  std::string bytes = hand_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", v, sizeof v);
  bytes[6] = 3;  // a version 1.0 file relabelled 3.0: its 2-byte length read as 4 bytes
  NpyArray a;
  std::string err;
  EXPECT_FALSE(parse_npy(bytes, &a, &err));
  EXPECT_NE(err.find("format version 3.0"), std::string::npos) << err;
  EXPECT_NE(err.find("length field"), std::string::npos) << err;
  bytes[6] = 4;
  EXPECT_FALSE(parse_npy(bytes, &a, &err));
  EXPECT_NE(err.find("unsupported .npy format version 4.0 (mslport reads versions 1.0, 2.0 and 3.0)"),
            std::string::npos)
      << err;
  // A real version 3.0 file (UTF-8 header) reads.
  bytes = hand_npy(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", v, sizeof v);
  ASSERT_TRUE(parse_npy(bytes, &a, &err)) << err;
  EXPECT_EQ(a.count(), 2u);
}

TEST(Npy, SpecialFilesAreRefused) {
  NpyArray a;
  NpyHeader h;
  std::string err;
  EXPECT_FALSE(read_npy("/dev/zero", &a, &err));
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  EXPECT_FALSE(read_npy_header("/dev/zero", &h, &err));
}

}  // namespace mslport::runtime
