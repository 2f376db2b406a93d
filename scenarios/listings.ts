/**
 * Craigslist-style listings written for Parley, used by the built-in Craigslist generator unless a
 * listings file (e.g. cocoa's craigslist_listings_sample.json) is given instead.
 */
export interface Listing {
  title: string;
  category: string;
  price: number;
  /** Description sentences; the buyer sees only the first part. */
  description: string[];
}

export const BUILTIN_LISTINGS: readonly Listing[] = [
  { title: 'Steel-frame touring bicycle, 56 cm', category: 'bike', price: 420, description: [
    'Steel touring frame with front and rear racks, ridden on two long trips.',
    'New chain and brake pads fitted last month.',
    'The rear wheel has a slight wobble that a shop can true in ten minutes.',
    'Selling because I moved somewhere too hilly for it.'] },
  { title: 'Kids\' balance bike, red', category: 'bike', price: 45, description: [
    'Wooden balance bike for ages two to four.',
    'Seat height adjusts without tools.',
    'A few scratches on the paint from enthusiastic use.'] },
  { title: '2011 hatchback, manual, 142,000 miles', category: 'car', price: 3800, description: [
    'Reliable five-door hatchback, manual gearbox, cheap to insure.',
    'Timing belt replaced at 120,000 miles, receipts available.',
    'Air conditioning needs a regas and the passenger mirror is cracked.',
    'Two owners, no accidents.'] },
  { title: 'Camper van conversion, 2006', category: 'car', price: 11500, description: [
    'Converted panel van with a fold-down bed, sink and 100 W solar panel.',
    'Passed inspection in March.',
    'Some rust on the sliding door runner, treated but visible.',
    'Perfect for weekend trips; selling because we had twins.'] },
  { title: 'Noise-cancelling headphones, over-ear', category: 'electronics', price: 180, description: [
    'Over-ear wireless headphones with active noise cancelling.',
    'Battery still lasts around 25 hours.',
    'Ear cushions are slightly worn; the original case is included.'] },
  { title: 'Mirrorless camera with 24-70 mm lens', category: 'electronics', price: 950, description: [
    'Full-frame mirrorless body, about 8,000 shutter actuations.',
    'Comes with a 24-70 mm zoom, two batteries and a charger.',
    'Tiny mark on the rear screen that does not show in use.',
    'Upgrading to a newer model, hence the sale.'] },
  { title: 'Solid oak dining table with four chairs', category: 'furniture', price: 600, description: [
    'Solid oak table that seats six, with four matching chairs.',
    'Surface re-oiled last year.',
    'One chair has a loose back rail that needs glue.',
    'Must be collected; it does not come apart.'] },
  { title: 'Velvet three-seater sofa, teal', category: 'furniture', price: 350, description: [
    'Teal velvet sofa, deep seats, very comfortable.',
    'From a smoke-free home with no pets.',
    'Cushion covers are removable but not machine washable.'] },
  { title: 'Standing desk, electric, 160 x 80 cm', category: 'furniture', price: 280, description: [
    'Electric sit-stand desk with two motors and memory presets.',
    'Bamboo top, fully working.',
    'A cable tray is missing from the underside.'] },
  { title: 'Room in a shared flat near the river', category: 'housing', price: 900, description: [
    'Furnished double room in a three-person flat, ten minutes from the river.',
    'Bills included except internet.',
    'The boiler is old and the hot water can be slow in winter.',
    'Available from the first of next month, minimum six months.'] },
  { title: 'Studio apartment, garden level', category: 'housing', price: 1350, description: [
    'Bright garden-level studio with its own entrance.',
    'Washer in the unit and a small patio.',
    'Street parking only, and the bus stop is a twelve-minute walk.'] },
  { title: 'Unlocked smartphone, 128 GB, graphite', category: 'phone', price: 390, description: [
    'Unlocked smartphone, 128 GB, always kept in a case.',
    'Battery health is at 86 percent.',
    'Box and cable included, no charger.'] },
  { title: 'Rugged flip phone, dual SIM', category: 'phone', price: 60, description: [
    'Waterproof flip phone with a week of battery life.',
    'Dual SIM, loud speaker, works with all local networks.',
    'The hinge is a little stiff.'] },
  { title: 'Upright piano, walnut finish', category: 'furniture', price: 1200, description: [
    'Upright piano with a walnut finish, tuned in January.',
    'Lovely warm tone and a full set of working keys.',
    'Two keys stick slightly in damp weather.',
    'Buyer arranges piano movers.'] },
];
