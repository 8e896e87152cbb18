"use server";

import { controlFormAction } from "@/lib/controls/form-action";
import { addUpstreamAction, removeUpstreamAction } from "@/lib/gateway/upstream-actions";

export const addUpstreamFormAction = async (_prev: unknown, form: FormData) => controlFormAction(addUpstreamAction, form);
export const removeUpstreamFormAction = async (_prev: unknown, form: FormData) => controlFormAction(removeUpstreamAction, form);
