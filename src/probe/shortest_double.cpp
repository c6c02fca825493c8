#include "probe/shortest_double.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace perfgate::probe::detail {
namespace {

/// f × 2^e, f not necessarily normalized.
struct Fp {
  std::uint64_t f = 0;
  int e = 0;
};

Fp minus(Fp x, Fp y) noexcept {
  return {x.f - y.f, x.e};
}

/// The product's upper 64 bits, rounded: exact enough for Grisu's error bounds (1 ulp).
/// Four 32-bit products, so that it needs no 128-bit type.
Fp times(Fp x, Fp y) noexcept {
  constexpr std::uint64_t kLow = 0xffffffffu;
  const std::uint64_t low_low = (x.f & kLow) * (y.f & kLow);
  const std::uint64_t low_high = (x.f & kLow) * (y.f >> 32);
  const std::uint64_t high_low = (x.f >> 32) * (y.f & kLow);
  const std::uint64_t high_high = (x.f >> 32) * (y.f >> 32);
  std::uint64_t middle = (low_low >> 32) + (low_high & kLow) + (high_low & kLow);
  middle += std::uint64_t{1} << 31;  // rounds at bit 63 of the whole product
  return {high_high + (low_high >> 32) + (high_low >> 32) + (middle >> 32), x.e + y.e + 64};
}

Fp normalized(Fp x) noexcept {
  const int shift = __builtin_clzll(x.f);
  return {x.f << shift, x.e - shift};
}

/// The double and the two midpoints to its neighbours: any text between them reads back
/// as the double (both included would also be right for an even significand; Grisu2 stays
/// strictly inside).
struct Boundaries {
  Fp w;
  Fp minus;
  Fp plus;
};

Boundaries boundaries_of(double value) noexcept {
  constexpr int kBias = 1023 + 52;
  constexpr std::uint64_t kHiddenBit = std::uint64_t{1} << 52;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const std::uint64_t biased_exponent = bits >> 52;
  const std::uint64_t fraction = bits & (kHiddenBit - 1);
  const Fp v = biased_exponent == 0
                   ? Fp{fraction, 1 - kBias}
                   : Fp{fraction + kHiddenBit, static_cast<int>(biased_exponent) - kBias};
  // At a power of two the double below is half as far away as the one above.
  const bool lower_is_closer = fraction == 0 && biased_exponent > 1;
  const Fp plus = normalized({2 * v.f + 1, v.e - 1});
  Fp minus = lower_is_closer ? Fp{4 * v.f - 1, v.e - 2} : Fp{2 * v.f - 1, v.e - 1};
  minus = {minus.f << (minus.e - plus.e), plus.e};
  return {normalized(v), minus, plus};
}

struct CachedPower {
  std::uint64_t f;
  int e;
  int k;  // the power of ten: f × 2^e ≈ 10^k
};

// 10^k for k = -300, -292, ..., 324, each rounded to 64 bits (computed exactly with
// rational arithmetic).
constexpr CachedPower kCachedPowers[] = {
    {0xAB70FE17C79AC6CAu, -1060, -300}, {0xFF77B1FCBEBCDC4Fu, -1034, -292},
    {0xBE5691EF416BD60Cu, -1007, -284}, {0x8DD01FAD907FFC3Cu, -980, -276},
    {0xD3515C2831559A83u, -954, -268},  {0x9D71AC8FADA6C9B5u, -927, -260},
    {0xEA9C227723EE8BCBu, -901, -252},  {0xAECC49914078536Du, -874, -244},
    {0x823C12795DB6CE57u, -847, -236},  {0xC21094364DFB5637u, -821, -228},
    {0x9096EA6F3848984Fu, -794, -220},  {0xD77485CB25823AC7u, -768, -212},
    {0xA086CFCD97BF97F4u, -741, -204},  {0xEF340A98172AACE5u, -715, -196},
    {0xB23867FB2A35B28Eu, -688, -188},  {0x84C8D4DFD2C63F3Bu, -661, -180},
    {0xC5DD44271AD3CDBAu, -635, -172},  {0x936B9FCEBB25C996u, -608, -164},
    {0xDBAC6C247D62A584u, -582, -156},  {0xA3AB66580D5FDAF6u, -555, -148},
    {0xF3E2F893DEC3F126u, -529, -140},  {0xB5B5ADA8AAFF80B8u, -502, -132},
    {0x87625F056C7C4A8Bu, -475, -124},  {0xC9BCFF6034C13053u, -449, -116},
    {0x964E858C91BA2655u, -422, -108},  {0xDFF9772470297EBDu, -396, -100},
    {0xA6DFBD9FB8E5B88Fu, -369, -92},   {0xF8A95FCF88747D94u, -343, -84},
    {0xB94470938FA89BCFu, -316, -76},   {0x8A08F0F8BF0F156Bu, -289, -68},
    {0xCDB02555653131B6u, -263, -60},   {0x993FE2C6D07B7FACu, -236, -52},
    {0xE45C10C42A2B3B06u, -210, -44},   {0xAA242499697392D3u, -183, -36},
    {0xFD87B5F28300CA0Eu, -157, -28},   {0xBCE5086492111AEBu, -130, -20},
    {0x8CBCCC096F5088CCu, -103, -12},   {0xD1B71758E219652Cu, -77, -4},
    {0x9C40000000000000u, -50, 4},      {0xE8D4A51000000000u, -24, 12},
    {0xAD78EBC5AC620000u, 3, 20},       {0x813F3978F8940984u, 30, 28},
    {0xC097CE7BC90715B3u, 56, 36},      {0x8F7E32CE7BEA5C70u, 83, 44},
    {0xD5D238A4ABE98068u, 109, 52},     {0x9F4F2726179A2245u, 136, 60},
    {0xED63A231D4C4FB27u, 162, 68},     {0xB0DE65388CC8ADA8u, 189, 76},
    {0x83C7088E1AAB65DBu, 216, 84},     {0xC45D1DF942711D9Au, 242, 92},
    {0x924D692CA61BE758u, 269, 100},    {0xDA01EE641A708DEAu, 295, 108},
    {0xA26DA3999AEF774Au, 322, 116},    {0xF209787BB47D6B85u, 348, 124},
    {0xB454E4A179DD1877u, 375, 132},    {0x865B86925B9BC5C2u, 402, 140},
    {0xC83553C5C8965D3Du, 428, 148},    {0x952AB45CFA97A0B3u, 455, 156},
    {0xDE469FBD99A05FE3u, 481, 164},    {0xA59BC234DB398C25u, 508, 172},
    {0xF6C69A72A3989F5Cu, 534, 180},    {0xB7DCBF5354E9BECEu, 561, 188},
    {0x88FCF317F22241E2u, 588, 196},    {0xCC20CE9BD35C78A5u, 614, 204},
    {0x98165AF37B2153DFu, 641, 212},    {0xE2A0B5DC971F303Au, 667, 220},
    {0xA8D9D1535CE3B396u, 694, 228},    {0xFB9B7CD9A4A7443Cu, 720, 236},
    {0xBB764C4CA7A44410u, 747, 244},    {0x8BAB8EEFB6409C1Au, 774, 252},
    {0xD01FEF10A657842Cu, 800, 260},    {0x9B10A4E5E9913129u, 827, 268},
    {0xE7109BFBA19C0C9Du, 853, 276},    {0xAC2820D9623BF429u, 880, 284},
    {0x80444B5E7AA7CF85u, 907, 292},    {0xBF21E44003ACDD2Du, 933, 300},
    {0x8E679C2F5E44FF8Fu, 960, 308},    {0xD433179D9C8CB841u, 986, 316},
    {0x9E19DB92B4E31BA9u, 1013, 324},
};

/// Grisu needs the scaled boundaries' exponent in [kAlpha, kGamma]: then their integer
/// part fits 32 bits and the fraction's digits come out of 64-bit products.
constexpr int kAlpha = -60;
constexpr int kGamma = -32;

CachedPower cached_power_for(int binary_exponent) noexcept {
  constexpr int kFirstPower = -300;
  constexpr int kStep = 8;
  const int f = kAlpha - binary_exponent - 1;
  const int k = (f * 78913) / (1 << 18) + (f > 0 ? 1 : 0);  // ceil(f × log10(2))
  const int index = (-kFirstPower + k + (kStep - 1)) / kStep;
  return kCachedPowers[index];
}

/// The digits of n and 10^(digits - 1).
int digit_count(std::uint32_t n, std::uint32_t& power) noexcept {
  int digits = 10;
  power = 1000000000u;
  while (digits > 1 && n < power) {
    power /= 10;
    --digits;
  }
  return digits;
}

/// Moves the last digit down while that brings the text closer to the value and keeps it
/// inside the boundaries.
void round_last_digit(char* digits, int length, std::uint64_t distance, std::uint64_t delta,
                      std::uint64_t rest, std::uint64_t ten_k) noexcept {
  while (rest < distance && delta - rest >= ten_k &&
         (rest + ten_k < distance || distance - rest > rest + ten_k - distance)) {
    --digits[length - 1];
    rest += ten_k;
  }
}

/// Digits of the scaled upper boundary until the text lies within the boundaries.
void generate_digits(char* digits, int& length, int& exponent, Fp low, Fp w, Fp high) noexcept {
  std::uint64_t delta = minus(high, low).f;
  std::uint64_t distance = minus(high, w).f;
  const int shift = -high.e;
  const std::uint64_t one = std::uint64_t{1} << shift;
  auto integral = static_cast<std::uint32_t>(high.f >> shift);
  std::uint64_t fractional = high.f & (one - 1);

  std::uint32_t power = 1;
  int left = digit_count(integral, power);
  while (left > 0) {
    digits[length++] = static_cast<char>('0' + integral / power);
    integral %= power;
    --left;
    const std::uint64_t rest = (std::uint64_t{integral} << shift) + fractional;
    if (rest <= delta) {
      exponent += left;
      round_last_digit(digits, length, distance, delta, rest, std::uint64_t{power} << shift);
      return;
    }
    power /= 10;
  }
  int fraction_digits = 0;
  for (;;) {
    fractional *= 10;
    delta *= 10;
    distance *= 10;
    digits[length++] = static_cast<char>('0' + (fractional >> shift));
    fractional &= one - 1;
    ++fraction_digits;
    if (fractional <= delta) break;
  }
  exponent -= fraction_digits;
  round_last_digit(digits, length, distance, delta, fractional, one);
}

/// Writes |exponent| with at least two digits, as printf's %e does.
char* write_exponent(char* out, int exponent) noexcept {
  *out++ = 'e';
  *out++ = exponent < 0 ? '-' : '+';
  const int magnitude = exponent < 0 ? -exponent : exponent;
  if (magnitude >= 100) *out++ = static_cast<char>('0' + magnitude / 100);
  *out++ = static_cast<char>('0' + magnitude / 10 % 10);
  *out++ = static_cast<char>('0' + magnitude % 10);
  return out;
}

/// An integral value below 10^22 (plain text is chosen only below that), exactly: as
/// std::to_chars writes it, every digit of the integer rather than the shortest digits
/// padded with zeros (12345678901234567168, not 12345678901234567000).
char* write_integer(char* out, double value) noexcept {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const int shift = static_cast<int>(bits >> 52) - 1075;  // value = significand × 2^shift
  const std::uint64_t significand =
      (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  // Integral, so a negative shift drops zeros only. Below 10^22 < 2^74, so shift <= 21:
  // in base-10^9 limbs, each times 2^shift stays under 2^51, and the carry out of the top
  // limb is 0.
  const std::uint64_t whole = shift <= 0 ? significand >> -shift : significand;
  const int doublings = shift > 0 ? shift : 0;
  constexpr std::uint64_t kLimb = 1000000000u;
  std::uint64_t limbs[3] = {whole % kLimb, whole / kLimb % kLimb, whole / kLimb / kLimb};
  std::uint64_t carry = 0;
  for (std::uint64_t& limb : limbs) {
    const std::uint64_t product = (limb << doublings) + carry;
    limb = product % kLimb;
    carry = product / kLimb;
  }
  int top = 2;
  while (top > 0 && limbs[top] == 0) --top;
  char reversed[32];
  int count = 0;
  for (int i = 0; i <= top; ++i) {
    std::uint64_t limb = limbs[i];
    for (int digit = 0; digit < 9 && (i < top || limb != 0); ++digit) {
      reversed[count++] = static_cast<char>('0' + limb % 10);
      limb /= 10;
    }
  }
  while (count > 0) *out++ = reversed[--count];
  return out;
}

int exponent_width(int exponent) noexcept {
  const int magnitude = exponent < 0 ? -exponent : exponent;
  return 2 + (magnitude >= 100 ? 3 : 2);
}

}  // namespace

char* write_shortest(char* out, double value) noexcept {
  if (std::signbit(value)) {
    *out++ = '-';
    value = -value;
  }
  if (value == 0) {
    *out++ = '0';
    return out;
  }
  const Boundaries b = boundaries_of(value);
  const CachedPower power = cached_power_for(b.plus.e);
  const Fp scale{power.f, power.e};
  const Fp w = times(b.w, scale);
  const Fp low = times(b.minus, scale);
  const Fp high = times(b.plus, scale);
  // One unit in from each side: the products may be off by one.
  char digits[18];
  int length = 0;
  int exponent = -power.k;
  generate_digits(digits, length, exponent, {low.f + 1, low.e}, w, {high.f - 1, high.e});

  // value = digits × 10^exponent. The layout std::to_chars picks: plain when it is no
  // longer than d.ddde±XX.
  const int scientific_exponent = length + exponent - 1;
  const int scientific = length + (length > 1 ? 1 : 0) + exponent_width(scientific_exponent);
  int plain = 0;
  if (exponent >= 0) {
    plain = length + exponent;
  } else if (length + exponent > 0) {
    plain = length + 1;
  } else {
    plain = 2 - (length + exponent) + length;
  }
  if (plain <= scientific) {
    if (exponent > 0) return write_integer(out, value);
    if (exponent == 0) {
      std::memcpy(out, digits, static_cast<std::size_t>(length));
      return out + length;
    }
    if (length + exponent > 0) {
      const int whole = length + exponent;
      std::memcpy(out, digits, static_cast<std::size_t>(whole));
      out += whole;
      *out++ = '.';
      std::memcpy(out, digits + whole, static_cast<std::size_t>(length - whole));
      return out + (length - whole);
    }
    *out++ = '0';
    *out++ = '.';
    const int zeros = -(length + exponent);
    std::memset(out, '0', static_cast<std::size_t>(zeros));
    out += zeros;
    std::memcpy(out, digits, static_cast<std::size_t>(length));
    return out + length;
  }
  *out++ = digits[0];
  if (length > 1) {
    *out++ = '.';
    std::memcpy(out, digits + 1, static_cast<std::size_t>(length - 1));
    out += length - 1;
  }
  return write_exponent(out, scientific_exponent);
}

}  // namespace perfgate::probe::detail
