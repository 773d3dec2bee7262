import type { Transaction } from 'kysely';
import type { Database } from '../database.js';

/**
 * Demo viewing calendars for two marinas where demo yachts lie: Port Vauban (the Belmare 64
 * Sport) and Port Camille Rayon (the Seahaven 58 Flybridge), Monday to Saturday on the French
 * clock, hour-long viewings with half an hour between them, closed on Sundays; sea trials of
 * two and a half hours where a boat allows them.
 */
export async function seedDemoViewings(trx: Transaction<Database>): Promise<void> {
  const weekdays = {
    '1': [
      ['09:00', '12:00'],
      ['14:00', '18:00'],
    ],
    '2': [
      ['09:00', '12:00'],
      ['14:00', '18:00'],
    ],
  } as const;
  const hours = JSON.stringify({
    ...weekdays,
    '3': weekdays['1'],
    '4': weekdays['1'],
    '5': weekdays['1'],
    '6': [['10:00', '16:00']],
  });
  await trx
    .insertInto('viewing_locations')
    .values([
      {
        marina: 'Port Vauban, Antibes',
        address: 'Avenue de Verdun, 06600 Antibes, France',
        time_zone: 'Europe/Paris',
        slot_minutes: 60,
        buffer_minutes: 30,
        weekly_hours: hours,
      },
      {
        marina: 'Port Camille Rayon, Golfe-Juan',
        address: 'Avenue des Frères Roustan, 06220 Vallauris, France',
        time_zone: 'Europe/Paris',
        slot_minutes: 60,
        buffer_minutes: 30,
        weekly_hours: hours,
      },
    ])
    .onConflict((oc) => oc.column('marina').doNothing())
    .execute();
  // The Belmare 64 Sport may be sailed on a sea trial (two and a half hours at Port Vauban).
  await trx.updateTable('products').set({ sea_trials: true }).where('name', '=', 'Belmare 64 Sport').execute();
}
