import { SetClientProfileForm } from "@/components/client-profile-forms";
import { ClientProfilesTable, ObservedClientsTable } from "@/components/client-tables";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { clientCompatibility } from "@/lib/metrics/clients";
import { listClientProfiles } from "@/lib/policy/client-profiles";
import { removeClientProfileFormAction, setClientProfileFormAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function ClientsPage() {
  const access = await consolePageAccess("clients");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const rows = await clientCompatibility(access.db);
  const profiles = await listClientProfiles(access.db);
  const canManage = hasPermission(access.operator.roles, PERMISSIONS.clientProfilesManage);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Clients</h1>
      <section aria-labelledby="profiles-h" className="mt-2">
        <h2 id="profiles-h" className="text-lg font-semibold">
          Client profiles
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Flows are keyed on these profiles. A token&apos;s verified OAuth client id (<code>client_id</code>, else <code>azp</code>) selects
          its profile; any client id not mapped here, such as a dynamically registered one, belongs to <code>unregistered</code>. What a
          client calls itself never matters.
        </p>
        <ClientProfilesTable
          rows={profiles.map(({ clientId, profileId, displayName, createdBy, disabledAt }) => ({
            clientId,
            profileId,
            displayName,
            createdBy,
            disabledAt,
          }))}
          remove={canManage ? removeClientProfileFormAction : undefined}
        />
        {canManage ? (
          <div className="mt-2">
            <SetClientProfileForm action={setClientProfileFormAction} />
          </div>
        ) : null}
      </section>
      <h2 className="mt-6 text-lg font-semibold">Observed client software</h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        What each client version declared in this deployment (at initialize, or with every request in the stateless 2026-07-28 revision,
        which opens no session), which protocol revisions it spoke, and how its elicitations fared. Trust the declarations, not the product
        name.
      </p>
      <ObservedClientsTable rows={rows} />
    </main>
  );
}
