// Reading the list of expansions (list.hpp) without naming any of them
// (docs/expansions.md, "Adding an expansion"):
//
//   CARC_EACH_EXPANSION(X)        X(Name, id) for every expansion, in Expansion order;
//   CARC_EXPANSION_COUNT          how many there are;
//   CARC_EXPANSION_FILE(n, file)  "expansions/<id>/file" of expansion n, for #include
//                                 (guard it with #ifdef CARC_EXPANSION_<n>).
//
// An ExpansionSet keeps one bit per expansion in a byte: at most 8, numbered 0-7 without gaps.
#pragma once

#include "carc/core/expansions/list.hpp"

#define CARC_EXPANSION_APPLY(X, ...) X(__VA_ARGS__)
#define CARC_EXPANSION_ID_(Name, id) id
#define CARC_EXPANSION_ID(...) CARC_EXPANSION_ID_(__VA_ARGS__)
#define CARC_EXPANSION_STR_(x) #x
#define CARC_EXPANSION_STR(x) CARC_EXPANSION_STR_(x)
#define CARC_EXPANSION_PATH(id, file) CARC_EXPANSION_STR(expansions/id/file)
#define CARC_EXPANSION_FILE_(id, file) CARC_EXPANSION_PATH(id, file)
#define CARC_EXPANSION_FILE(n, file) CARC_EXPANSION_FILE_(CARC_EXPANSION_ID(CARC_EXPANSION_##n), file)

#ifdef CARC_EXPANSION_0
#define CARC_EACH_EXPANSION_0(X) CARC_EXPANSION_APPLY(X, CARC_EXPANSION_0)
#define CARC_EXPANSION_COUNT_0 1
#else
#define CARC_EACH_EXPANSION_0(X)
#define CARC_EXPANSION_COUNT_0 0
#endif
#ifdef CARC_EXPANSION_1
#define CARC_EACH_EXPANSION_1(X) CARC_EXPANSION_APPLY(X, CARC_EXPANSION_1)
#define CARC_EXPANSION_COUNT_1 1
#else
#define CARC_EACH_EXPANSION_1(X)
#define CARC_EXPANSION_COUNT_1 0
#endif
#ifdef CARC_EXPANSION_2
#define CARC_EACH_EXPANSION_2(X) CARC_EXPANSION_APPLY(X, CARC_EXPANSION_2)
#define CARC_EXPANSION_COUNT_2 1
#else
#define CARC_EACH_EXPANSION_2(X)
#define CARC_EXPANSION_COUNT_2 0
#endif
#ifdef CARC_EXPANSION_3
#define CARC_EACH_EXPANSION_3(X) CARC_EXPANSION_APPLY(X, CARC_EXPANSION_3)
#define CARC_EXPANSION_COUNT_3 1
#else
#define CARC_EACH_EXPANSION_3(X)
#define CARC_EXPANSION_COUNT_3 0
#endif
#ifdef CARC_EXPANSION_4
#define CARC_EACH_EXPANSION_4(X) CARC_EXPANSION_APPLY(X, CARC_EXPANSION_4)
#define CARC_EXPANSION_COUNT_4 1
#else
#define CARC_EACH_EXPANSION_4(X)
#define CARC_EXPANSION_COUNT_4 0
#endif
#ifdef CARC_EXPANSION_5
#define CARC_EACH_EXPANSION_5(X) CARC_EXPANSION_APPLY(X, CARC_EXPANSION_5)
#define CARC_EXPANSION_COUNT_5 1
#else
#define CARC_EACH_EXPANSION_5(X)
#define CARC_EXPANSION_COUNT_5 0
#endif
#ifdef CARC_EXPANSION_6
#define CARC_EACH_EXPANSION_6(X) CARC_EXPANSION_APPLY(X, CARC_EXPANSION_6)
#define CARC_EXPANSION_COUNT_6 1
#else
#define CARC_EACH_EXPANSION_6(X)
#define CARC_EXPANSION_COUNT_6 0
#endif
#ifdef CARC_EXPANSION_7
#define CARC_EACH_EXPANSION_7(X) CARC_EXPANSION_APPLY(X, CARC_EXPANSION_7)
#define CARC_EXPANSION_COUNT_7 1
#else
#define CARC_EACH_EXPANSION_7(X)
#define CARC_EXPANSION_COUNT_7 0
#endif

#if defined(CARC_EXPANSION_1) && !defined(CARC_EXPANSION_0)
#error "list.hpp: the expansions are numbered 0-7 without gaps"
#endif
#if defined(CARC_EXPANSION_2) && !defined(CARC_EXPANSION_1)
#error "list.hpp: the expansions are numbered 0-7 without gaps"
#endif
#if defined(CARC_EXPANSION_3) && !defined(CARC_EXPANSION_2)
#error "list.hpp: the expansions are numbered 0-7 without gaps"
#endif
#if defined(CARC_EXPANSION_4) && !defined(CARC_EXPANSION_3)
#error "list.hpp: the expansions are numbered 0-7 without gaps"
#endif
#if defined(CARC_EXPANSION_5) && !defined(CARC_EXPANSION_4)
#error "list.hpp: the expansions are numbered 0-7 without gaps"
#endif
#if defined(CARC_EXPANSION_6) && !defined(CARC_EXPANSION_5)
#error "list.hpp: the expansions are numbered 0-7 without gaps"
#endif
#if defined(CARC_EXPANSION_7) && !defined(CARC_EXPANSION_6)
#error "list.hpp: the expansions are numbered 0-7 without gaps"
#endif
#ifdef CARC_EXPANSION_8
#error "list.hpp: an ExpansionSet holds at most 8 expansions"
#endif

#define CARC_EACH_EXPANSION(X)                                                                  \
  CARC_EACH_EXPANSION_0(X) CARC_EACH_EXPANSION_1(X) CARC_EACH_EXPANSION_2(X) CARC_EACH_EXPANSION_3(X) \
  CARC_EACH_EXPANSION_4(X) CARC_EACH_EXPANSION_5(X) CARC_EACH_EXPANSION_6(X) CARC_EACH_EXPANSION_7(X)
#define CARC_EXPANSION_COUNT                                                                  \
  (CARC_EXPANSION_COUNT_0 + CARC_EXPANSION_COUNT_1 + CARC_EXPANSION_COUNT_2 + CARC_EXPANSION_COUNT_3 + \
   CARC_EXPANSION_COUNT_4 + CARC_EXPANSION_COUNT_5 + CARC_EXPANSION_COUNT_6 + CARC_EXPANSION_COUNT_7)
