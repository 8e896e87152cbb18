"use server";

import { runRegisteredControl } from "@/lib/controls/registered-form-action";

// Every generic console form posts here with its control's name bound (lib/controls/registry.ts).
export const registeredControlAction = async (name: string, _prev: unknown, form: FormData) => runRegisteredControl(name, form);
