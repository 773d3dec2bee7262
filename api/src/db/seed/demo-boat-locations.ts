import type { CeCategory } from '@boatshop/contract';

// What the demo boats' descriptions do not say: where each lies and its CE design category.
// Invented marinas in real countries, so the search's country facet has something to count.

export const DEMO_BOAT_LOCATIONS: Record<string, { marina: string; country: string; ceCategory: CeCategory }> = {
  'aldren-22-daysailer': { marina: 'Lake Constance Yacht Harbour', country: 'DE', ceCategory: 'C' },
  'marlow-wren-24': { marina: 'Port Hamble', country: 'GB', ceCategory: 'C' },
  'nordvik-27-classic': { marina: 'Kiel Holtenau', country: 'DE', ceCategory: 'B' },
  'solent-breeze-30': { marina: 'Port Hamble', country: 'GB', ceCategory: 'B' },
  'halvard-31-performance': { marina: 'La Trinité-sur-Mer', country: 'FR', ceCategory: 'A' },
  'cap-ferrand-34': { marina: 'Les Minimes, La Rochelle', country: 'FR', ceCategory: 'A' },
  'baltic-tern-36': { marina: 'Marstrand', country: 'SE', ceCategory: 'A' },
  'westerholm-38-ds': { marina: 'Marstrand', country: 'SE', ceCategory: 'A' },
  'aurora-bay-40': { marina: 'Port Vell, Barcelona', country: 'ES', ceCategory: 'A' },
  'lisandra-42-catamaran': { marina: 'Lefkas Marina', country: 'GR', ceCategory: 'A' },
  'skagen-polar-45': { marina: 'Tromsø Havn', country: 'NO', ceCategory: 'A' },
  'orcadia-50-bluewater': { marina: 'Falmouth Haven', country: 'GB', ceCategory: 'A' },
  'tamsin-56-raised-saloon': { marina: 'Palma de Mallorca', country: 'ES', ceCategory: 'A' },
  'valkyr-65-performance-cruiser': { marina: 'Porto Cervo', country: 'IT', ceCategory: 'A' },
  'riviera-azzurra-42-open': { marina: 'Portofino', country: 'IT', ceCategory: 'B' },
  'costa-brava-48-fly': { marina: 'Port Vell, Barcelona', country: 'ES', ceCategory: 'B' },
  'monte-argento-52-coupe': { marina: 'Marina Dorica, Ancona', country: 'IT', ceCategory: 'B' },
  'seahaven-58-flybridge': { marina: 'Port Camille Rayon, Golfe-Juan', country: 'FR', ceCategory: 'A' },
  'belmare-64-sport': { marina: 'Port Vauban, Antibes', country: 'FR', ceCategory: 'A' },
  'portofino-stella-70': { marina: 'Portofino', country: 'IT', ceCategory: 'A' },
  'nautilus-grand-78': { marina: 'Palma de Mallorca', country: 'ES', ceCategory: 'A' },
  'altamar-85-explorer': { marina: 'IJmuiden Seaport Marina', country: 'NL', ceCategory: 'A' },
  'marquesa-92-tri-deck': { marina: 'Ibiza Magna', country: 'ES', ceCategory: 'A' },
  'serenissima-108': { marina: 'Venezia Certosa', country: 'IT', ceCategory: 'A' },
  'aquila-40m-superyacht': { marina: 'Port Hercule', country: 'MC', ceCategory: 'A' },
  'leviathan-55m-explorer': { marina: 'Port Vauban, Antibes', country: 'FR', ceCategory: 'A' },
};
