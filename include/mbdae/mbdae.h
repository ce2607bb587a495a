/** @file mbdae/mbdae.h
 * @brief Umbrella header of the mbdae toolkit: includes every public header.
 *
 * mbdae integrates hybrid DAEs/ODEs of constrained multibody systems with
 * non-smooth events: a problem (problem.h, with an optional mechanical form
 * for event capturing, mechanics.h) is run by the engine (engine.h);
 * model kinds (model.h) describe whole models to the scenario driver;
 * jaccheck.h checks analytic Jacobians, validation.h holds the validation
 * cases, geometry.h the optional 3-D scenes for animation. */
#ifndef MBDAE_H
#define MBDAE_H

#include "mbdae/export.h"
#include "mbdae/status.h"
#include "mbdae/problem.h"
#include "mbdae/mechanics.h"
#include "mbdae/engine.h"
#include "mbdae/jaccheck.h"
#include "mbdae/model.h"
#include "mbdae/validation.h"
#endif
