"use client";

/**
 * Firing alerts at the top of the dashboard. Renders nothing while no monitor fires.
 * (First version: the alerts API lands with the monitors; until then there is nothing to show.)
 */
export function ActiveAlerts() {
  return null;
}
