"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface VolumePoint {
  t: string;
  completed: number;
  refused: number;
  failed: number;
  open: number;
}

/** A thin recharts wrapper: the rows arrive pre-aggregated from SQL. */
export function VolumeChart({ data }: { data: VolumePoint[] }) {
  return (
    <figure aria-label="Elicitation volume over time by outcome" className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="t" tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend />
          <Bar dataKey="completed" stackId="a" fill="#15803d" name="Completed" />
          <Bar dataKey="refused" stackId="a" fill="#a16207" name="Declined or cancelled by the person" />
          <Bar dataKey="failed" stackId="a" fill="#b91c1c" name="Failed, timed out, client went away, revoked, not sent" />
          <Bar dataKey="open" stackId="a" fill="#1d4ed8" name="In flight" />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
