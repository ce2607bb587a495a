/* mbdae/mbdae.h - umbrella header of the mbdae toolkit. */
#ifndef MBDAE_H
#define MBDAE_H
#include "mbdae/status.h"
#include "mbdae/problem.h"
#include "mbdae/engine.h"
#include "mbdae/jaccheck.h"
#include "mbdae/model.h"
#include "mbdae/validation.h"
#endif
