/**
 * MutualFriends value pools written for Parley (fictional schools and companies), used by the built-in
 * generator unless a pool file (e.g. cocoa's friends schema) is given instead.
 */
export interface FriendPools {
  /** The name attribute; always one of the attributes, so a friend can be selected by name. */
  nameAttribute: string;
  /** First names for friends. */
  names: readonly string[];
  /** Other attributes → their possible values. */
  attributes: Readonly<Record<string, readonly string[]>>;
}

export const BUILTIN_FRIEND_POOLS: FriendPools = {
  nameAttribute: 'Name',
  names: [
    'Adaeze', 'Bram', 'Celestine', 'Dario', 'Elske', 'Farid', 'Greta', 'Hollis', 'Ines', 'Jovan',
    'Kalani', 'Leopold', 'Marisol', 'Niamh', 'Oskar', 'Priya', 'Quentin', 'Rosalind', 'Soren', 'Tamsin',
    'Ulla', 'Viggo', 'Wren', 'Xiomara', 'Yusuf', 'Zofia', 'Anselm', 'Beatrix', 'Cormac', 'Delphine',
    'Emeka', 'Fenna', 'Gideon', 'Hana', 'Ivo', 'Juniper', 'Kasimir', 'Lorna', 'Matthias', 'Nadia',
    'Orla', 'Pascal', 'Rania', 'Silas', 'Thea', 'Umar', 'Vesna', 'Wilhelmina', 'Yara', 'Zeno',
  ],
  attributes: {
    School: [
      'Harrowgate Institute of Technology', 'Lakeshore State University', 'Pinecrest College',
      'Saint Aldric University', 'Redwater Polytechnic', 'Northmoor College of Arts', 'Cobalt Bay University',
      'Eastfield Community College', 'Marrow Hill University', 'Vantwell School of Design',
      'Brightwater Seminary', 'Old Quarry College', 'Silverline University', 'Tannery Row Institute',
    ],
    Major: [
      'Marine Biology', 'Industrial Design', 'Medieval History', 'Applied Mathematics', 'Nursing',
      'Linguistics', 'Civil Engineering', 'Music Theory', 'Agricultural Economics', 'Astrophysics',
      'Social Work', 'Food Science', 'Urban Planning', 'Philosophy',
    ],
    Company: [
      'Kettleworks Foods', 'Northlight Logistics', 'Orchard & Vane Insurance', 'Bluefin Analytics',
      'Halvorsen Shipyards', 'Copperleaf Pharmacy', 'Meridian Rail', 'Tidewell Energy', 'Quillbright Press',
      'Stonebridge Builders', 'Lanternfish Games', 'Greymoor Textiles', 'Parrot Hill Media', 'Vireo Robotics',
    ],
    Hobby: [
      'Bouldering', 'Birdwatching', 'Pottery', 'Chess', 'Sea kayaking', 'Beekeeping', 'Karaoke',
      'Woodworking', 'Origami', 'Trail running', 'Baking sourdough', 'Model trains', 'Fencing', 'Salsa dancing',
    ],
    'Location Preference': ['indoors', 'outdoors'],
    'Time Preference': ['morning', 'afternoon', 'evening'],
  },
};
