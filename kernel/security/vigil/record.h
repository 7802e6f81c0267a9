/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: the audit record of a first sighting or a would-be denial (audit.c). */
#ifndef _SECURITY_VIGIL_RECORD_H
#define _SECURITY_VIGIL_RECORD_H

#include <linux/cred.h>
#include <linux/types.h>

#include "subject.h"
#include "table.h"
#include "vigil.h"

struct vigil_access;

extern int vigil_audit_type;
bool vigil_record_released(const struct vigil_entry *e);
bool vigil_record(const struct vigil_subject *subj, const struct cred *cred,
		  enum vigil_verdict verdict, const struct vigil_access *acc,
		  const char *obj, size_t len, u32 mntns, u64 mntns_id,
		  u64 seq);

#endif /* _SECURITY_VIGIL_RECORD_H */
