// SIMD-group functions (simd_sum, simd_shuffle, ...): each active lane's
// operand is gathered into the threadgroup's state, the 32-lane groups are
// combined in order by openmp_rt.h (mslport::simd_reduce, simd_shuffle,
// ...), and each active lane gets its result back.
#include "back/openmp/print/body_printer.h"

namespace mslport::back::openmp::print_detail {

void BodyPrinter::collective(const TgNode& n) {
  using ir::CollectiveOp;
  const Stmt& s = *n.stmt;
  const Expr& c = s.kind == Stmt::Kind::Decl ? *s.expr : *s.expr->args[1];
  int target = s.kind == Stmt::Kind::Decl ? s.var : s.expr->args[0]->index;
  std::string v = "mslport_c" + std::to_string(counter_++);
  std::string vt = p_.type(c.args[0]->type);
  std::string rt = p_.type(c.type);
  state_members_.push_back("bool " + v + "_act[mslport::kMaxThreads];");
  state_members_.push_back(vt + " " + v + "_in[mslport::kMaxThreads];");
  state_members_.push_back(rt + " " + v + "_out[mslport::kMaxThreads];");
  // The fill shuffles exchange two values (data, filling) and take a delta
  // and a modulo (the group's width where the call gives none).
  const bool fill = c.collective_op == CollectiveOp::SimdShuffleAndFillDown ||
                    c.collective_op == CollectiveOp::SimdShuffleAndFillUp ||
                    c.collective_op == CollectiveOp::QuadShuffleAndFillDown ||
                    c.collective_op == CollectiveOp::QuadShuffleAndFillUp;
  bool has_arg = fill || c.args.size() > 1;
  if (has_arg) state_members_.push_back("uint32_t " + v + "_arg[mslport::kMaxThreads];");
  if (fill) {
    state_members_.push_back(vt + " " + v + "_fill[mslport::kMaxThreads];");
    state_members_.push_back("uint32_t " + v + "_mod[mslport::kMaxThreads];");
  }
  line("// " + std::string(ir::collective_name(c.collective_op)) + " at " + comment_text(loc_string(c.loc)) +
       ": combines the active lanes of each 32-lane SIMD group");
  open_loop(n.gather, Scope{});
  line("const bool act = " + (c.mask ? ex(*c.mask, true) : std::string("true")) + ";");
  line("st." + v + "_act[wi] = act;");
  std::string args = "st." + v + "_in[wi] = " + ex(*c.args[0], true) + ";";
  if (fill) {
    args += " st." + v + "_fill[wi] = " + ex(*c.args[1], true) + "; st." + v + "_arg[wi] = uint32_t(" +
            ex(*c.args[2], true) + "); st." + v + "_mod[wi] = uint32_t(" +
            (c.args.size() > 3 ? ex(*c.args[3], true) : std::string("0")) + ");";
  } else if (has_arg) {
    args += " st." + v + "_arg[wi] = uint32_t(" + ex(*c.args[1], true) + ");";
  }
  line("if (act) { " + args + " }");
  close_loop(n.gather);
  std::string in = "st." + v + "_in", act = "st." + v + "_act", out = "st." + v + "_out", arg = "st." + v + "_arg";
  switch (c.collective_op) {
    case CollectiveOp::SimdSum:
    case CollectiveOp::SimdProduct:
    case CollectiveOp::SimdMax:
    case CollectiveOp::SimdMin:
    case CollectiveOp::SimdAnd:
    case CollectiveOp::SimdOr:
    case CollectiveOp::SimdXor: {
      static const std::map<CollectiveOp, const char*> kOp = {
          {CollectiveOp::SimdSum, "Sum"}, {CollectiveOp::SimdProduct, "Product"}, {CollectiveOp::SimdMax, "Max"},
          {CollectiveOp::SimdMin, "Min"}, {CollectiveOp::SimdAnd, "And"},         {CollectiveOp::SimdOr, "Or"},
          {CollectiveOp::SimdXor, "Xor"}};
      line("mslport::simd_reduce(mslport::Reduce::" + std::string(kOp.at(c.collective_op)) + ", " + in + ", " + act +
           ", nthreads, " + out + ");");
      break;
    }
    case CollectiveOp::SimdPrefixInclusiveSum:
    case CollectiveOp::SimdPrefixExclusiveSum:
      line(std::string("mslport::simd_prefix_sum(") +
           (c.collective_op == CollectiveOp::SimdPrefixInclusiveSum ? "true" : "false") + ", " + in + ", " + act +
           ", nthreads, " + out + ");");
      break;
    case CollectiveOp::SimdBroadcast:
    case CollectiveOp::SimdBroadcastFirst:
    case CollectiveOp::SimdShuffle:
    case CollectiveOp::SimdShuffleDown:
    case CollectiveOp::SimdShuffleUp:
    case CollectiveOp::SimdShuffleXor: {
      static const std::map<CollectiveOp, const char*> kKind = {
          {CollectiveOp::SimdBroadcast, "Broadcast"}, {CollectiveOp::SimdBroadcastFirst, "BroadcastFirst"},
          {CollectiveOp::SimdShuffle, "Index"},       {CollectiveOp::SimdShuffleDown, "Down"},
          {CollectiveOp::SimdShuffleUp, "Up"},        {CollectiveOp::SimdShuffleXor, "Xor"}};
      line("mslport::simd_shuffle(mslport::Shuffle::" + std::string(kKind.at(c.collective_op)) + ", " + in + ", " +
           (has_arg ? arg : std::string("(const uint32_t*)nullptr")) + ", " + act + ", nthreads, " + out + ");");
      if (n.shuffle_site >= 0)
        line("mslport_san.shuffle(mslport_site_" + k_.name + "_" + std::to_string(n.shuffle_site) +
             ", mslport::Shuffle::" + kKind.at(c.collective_op) + ", " + arg + ", " + act + ", nthreads);");
      break;
    }
    case CollectiveOp::SimdAll:
    case CollectiveOp::SimdAny:
      line(std::string("mslport::group_vote(mslport::kSimdWidth, ") +
           (c.collective_op == CollectiveOp::SimdAll ? "true" : "false") + ", " + in + ", " + act + ", nthreads, " +
           out + ");");
      break;
    case CollectiveOp::SimdBallot:
    case CollectiveOp::SimdActiveThreadsMask:
      line("mslport::group_ballot(mslport::kSimdWidth, " + in + ", " + act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::SimdPrefixInclusiveProduct:
    case CollectiveOp::SimdPrefixExclusiveProduct:
      line(std::string("mslport::group_prefix(mslport::kSimdWidth, ") +
           (c.collective_op == CollectiveOp::SimdPrefixInclusiveProduct ? "true" : "false") + ", true, " + in + ", " +
           act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::SimdShuffleRotateDown:
    case CollectiveOp::SimdShuffleRotateUp:
      line(std::string("mslport::group_rotate(mslport::kSimdWidth, ") +
           (c.collective_op == CollectiveOp::SimdShuffleRotateDown ? "true" : "false") + ", " + in + ", " + arg + ", " +
           act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::SimdShuffleAndFillDown:
    case CollectiveOp::SimdShuffleAndFillUp:
    case CollectiveOp::QuadShuffleAndFillDown:
    case CollectiveOp::QuadShuffleAndFillUp: {
      const bool quad = c.collective_op >= CollectiveOp::QuadSum;
      const bool down = c.collective_op == CollectiveOp::SimdShuffleAndFillDown ||
                        c.collective_op == CollectiveOp::QuadShuffleAndFillDown;
      line(std::string("mslport::group_fill(") + (quad ? "4u" : "mslport::kSimdWidth") + ", " +
           (down ? "true" : "false") + ", " + in + ", st." + v + "_fill, " + arg + ", st." + v + "_mod, " + act +
           ", nthreads, " + out + ");");
      break;
    }
    case CollectiveOp::QuadBallot:
    case CollectiveOp::QuadActiveThreadsMask:
      line("mslport::group_ballot(4u, " + in + ", " + act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::SimdIsFirst:
      line("mslport::group_is_first(mslport::kSimdWidth, " + act + ", nthreads, " + out + ");");
      break;
    // Quad-groups: the same over 4 lanes.
    case CollectiveOp::QuadSum:
    case CollectiveOp::QuadProduct:
    case CollectiveOp::QuadMax:
    case CollectiveOp::QuadMin:
    case CollectiveOp::QuadAnd:
    case CollectiveOp::QuadOr:
    case CollectiveOp::QuadXor: {
      static const std::map<CollectiveOp, const char*> kOp = {
          {CollectiveOp::QuadSum, "Sum"}, {CollectiveOp::QuadProduct, "Product"}, {CollectiveOp::QuadMax, "Max"},
          {CollectiveOp::QuadMin, "Min"}, {CollectiveOp::QuadAnd, "And"},         {CollectiveOp::QuadOr, "Or"},
          {CollectiveOp::QuadXor, "Xor"}};
      line("mslport::group_reduce(4u, mslport::Reduce::" + std::string(kOp.at(c.collective_op)) + ", " + in + ", " +
           act + ", nthreads, " + out + ");");
      break;
    }
    case CollectiveOp::QuadPrefixInclusiveSum:
    case CollectiveOp::QuadPrefixExclusiveSum:
      line(std::string("mslport::group_prefix(4u, ") +
           (c.collective_op == CollectiveOp::QuadPrefixInclusiveSum ? "true" : "false") + ", false, " + in + ", " +
           act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::QuadBroadcast:
    case CollectiveOp::QuadShuffle:
    case CollectiveOp::QuadShuffleDown:
    case CollectiveOp::QuadShuffleUp:
    case CollectiveOp::QuadShuffleXor: {
      static const std::map<CollectiveOp, const char*> kKind = {{CollectiveOp::QuadBroadcast, "Broadcast"},
                                                                {CollectiveOp::QuadShuffle, "Index"},
                                                                {CollectiveOp::QuadShuffleDown, "Down"},
                                                                {CollectiveOp::QuadShuffleUp, "Up"},
                                                                {CollectiveOp::QuadShuffleXor, "Xor"}};
      line("mslport::group_shuffle(4u, mslport::Shuffle::" + std::string(kKind.at(c.collective_op)) + ", " + in + ", " +
           arg + ", " + act + ", nthreads, " + out + ");");
      break;
    }
    case CollectiveOp::QuadAll:
    case CollectiveOp::QuadAny:
      line(std::string("mslport::group_vote(4u, ") + (c.collective_op == CollectiveOp::QuadAll ? "true" : "false") +
           ", " + in + ", " + act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::QuadPrefixInclusiveProduct:
    case CollectiveOp::QuadPrefixExclusiveProduct:
      line(std::string("mslport::group_prefix(4u, ") +
           (c.collective_op == CollectiveOp::QuadPrefixInclusiveProduct ? "true" : "false") + ", true, " + in + ", " +
           act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::QuadBroadcastFirst:
      line("mslport::group_shuffle(4u, mslport::Shuffle::BroadcastFirst, " + in + ", (const uint32_t*)nullptr, " + act +
           ", nthreads, " + out + ");");
      break;
    case CollectiveOp::QuadShuffleRotateDown:
    case CollectiveOp::QuadShuffleRotateUp:
      line(std::string("mslport::group_rotate(4u, ") +
           (c.collective_op == CollectiveOp::QuadShuffleRotateDown ? "true" : "false") + ", " + in + ", " + arg + ", " +
           act + ", nthreads, " + out + ");");
      break;
    case CollectiveOp::QuadIsFirst: line("mslport::group_is_first(4u, " + act + ", nthreads, " + out + ");"); break;
  }
  open_loop(n.scatter, Scope{});
  line("if (" + act + "[wi]) " + p_.var_ref(target, true) + " = " + out + "[wi];");
  close_loop(n.scatter);
}

}  // namespace mslport::back::openmp::print_detail
