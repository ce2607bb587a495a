/** @file mbdae/export.h
 * @brief MBDAE_EXPORT marks every declaration of the public API.
 *
 * libmbdae.so is compiled with -fvisibility=hidden: only what a public
 * header declares with MBDAE_EXPORT is in its dynamic symbol table, and every
 * such name starts with mbdae_ (a test checks `nm -D`). Internal functions of
 * the engine and the models stay private, so a user's own functions cannot
 * clash with them. A model kind compiled into a user's shared object (a
 * plug-in, doc/first-model-kind.md) marks its entry point the same way. */
#ifndef MBDAE_EXPORT_H
#define MBDAE_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#define MBDAE_EXPORT
#elif defined(__GNUC__) || defined(__clang__)
#define MBDAE_EXPORT __attribute__((visibility("default")))
#else
#define MBDAE_EXPORT
#endif

#endif
