/**
 * Wire-format renderers of the fake ATS server: turn vendor-neutral `FakePosting`s into each vendor's JSON as
 * documented in docs/sources.md (field names, nesting, escaping and date formats included).
 */

export interface FakePosting {
  id: string;
  title: string;
  department?: string;
  location?: string;
  remote?: boolean;
  /** Description as (unescaped) HTML. */
  descriptionHtml?: string;
  /** ISO timestamp. */
  postedAt?: string;
  /** ISO timestamp of the last edit, where the vendor states one (default: postedAt). */
  updatedAt?: string;
  /** The employer's requisition id where the vendor states one (default `R-<id>`; null: none stated). */
  requisitionId?: string | null;
  salary?: { min: number; max: number; currency: string };
  /** The posting's URL as the vendor sends it (a hostile board's, say); the vendor's usual one when absent. */
  url?: string;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const numericId = (id: string) => (/^\d+$/.test(id) ? Number(id) : id);
const city = (p: FakePosting) => (p.location ?? '').split(',')[0]?.trim() ?? '';
const posted = (p: FakePosting) => p.postedAt ?? '2026-11-01T09:00:00Z';

export function greenhouseJob(token: string, p: FakePosting) {
  return {
    id: numericId(p.id),
    internal_job_id: 1000 + Number.parseInt(p.id, 10) || null,
    title: p.title,
    updated_at: (p.updatedAt ?? posted(p)).replace('Z', '-05:00'),
    first_published: posted(p),
    requisition_id: p.requisitionId === undefined ? `R-${p.id}` : p.requisitionId,
    location: { name: p.remote ? `Remote - ${p.location ?? 'US'}` : (p.location ?? '') },
    absolute_url: p.url ?? `https://job-boards.greenhouse.io/${token}/jobs/${p.id}`,
    language: 'en',
    metadata: null,
    content: escapeHtml(p.descriptionHtml ?? ''),
    departments: p.department ? [{ id: 4001, name: p.department, parent_id: null, child_ids: [] }] : [],
    offices: [{ id: 8787, name: city(p), location: p.location ?? null, parent_id: null, child_ids: [] }],
  };
}

export function leverPosting(site: string, p: FakePosting) {
  return {
    id: p.id,
    text: p.title,
    categories: {
      location: p.location ?? null,
      team: p.department ?? null,
      department: p.department ?? null,
      commitment: 'Full-time',
    },
    country: 'US',
    createdAt: Date.parse(posted(p)),
    description: p.descriptionHtml ?? '',
    descriptionPlain: (p.descriptionHtml ?? '').replace(/<[^>]+>/g, ''),
    lists: [{ text: 'What you will do', content: '<li>Ship things</li><li>Talk to customers</li>' }],
    additional: '<p>We are an equal opportunity employer.</p>',
    hostedUrl: p.url ?? `https://jobs.lever.co/${site}/${p.id}`,
    applyUrl: `https://jobs.lever.co/${site}/${p.id}/apply`,
    workplaceType: p.remote ? 'remote' : 'on-site',
    ...(p.salary ? { salaryRange: { ...p.salary, interval: 'per-year-salary' } } : {}),
  };
}

export function ashbyJob(board: string, p: FakePosting) {
  return {
    id: p.id,
    title: p.title,
    department: p.department ?? null,
    team: p.department ?? null,
    employmentType: 'FullTime',
    location: p.location ?? 'Remote',
    secondaryLocations: [],
    isRemote: p.remote ?? false,
    workplaceType: p.remote ? 'Remote' : 'OnSite',
    isListed: true,
    publishedAt: posted(p).replace('Z', '+00:00'),
    jobUrl: `https://jobs.ashbyhq.com/${board}/${p.id}`,
    applyUrl: `https://jobs.ashbyhq.com/${board}/${p.id}/application`,
    descriptionHtml: p.descriptionHtml ?? '',
    descriptionPlain: (p.descriptionHtml ?? '').replace(/<[^>]+>/g, ''),
    shouldDisplayCompensationOnJobPostings: p.salary !== undefined,
    ...(p.salary
      ? {
          compensation: {
            compensationTierSummary: `$${p.salary.min / 1000}K – $${p.salary.max / 1000}K`,
            scrapeableCompensationSalarySummary: `$${p.salary.min / 1000}K - $${p.salary.max / 1000}K`,
            summaryComponents: [
              {
                compensationType: 'Salary',
                interval: '1 YEAR',
                currencyCode: p.salary.currency,
                minValue: p.salary.min,
                maxValue: p.salary.max,
              },
            ],
          },
        }
      : {}),
  };
}

export function workableWidgetJob(p: FakePosting) {
  const [c = '', s = '', country = ''] = (p.location ?? '').split(',').map((x) => x.trim());
  return {
    title: p.title,
    shortcode: p.id,
    code: '',
    employment_type: 'Full-time',
    telecommuting: p.remote ?? false,
    department: p.department ?? '',
    url: `https://apply.workable.com/j/${p.id}`,
    shortlink: `https://apply.workable.com/j/${p.id}`,
    application_url: `https://apply.workable.com/j/${p.id}/apply`,
    published_on: posted(p).slice(0, 10),
    created_at: posted(p).slice(0, 10),
    country,
    city: c,
    state: s,
    education: '',
    experience: 'Mid-Senior level',
    function: '',
    industry: '',
    locations: [{ country, countryCode: '', city: c, region: s, hidden: false }],
    description: p.descriptionHtml ?? '',
  };
}

export function workableV3Job(p: FakePosting) {
  const [c = '', s = '', country = ''] = (p.location ?? '').split(',').map((x) => x.trim());
  return {
    id: Number.parseInt(p.id, 36) || 1,
    shortcode: p.id,
    title: p.title,
    remote: p.remote ?? false,
    location: { country, countryCode: '', city: c, region: s },
    locations: [],
    state: 'published',
    isInternal: false,
    published: posted(p),
    type: 'full',
    department: p.department ? [p.department] : [],
    workplace: p.remote ? 'remote' : 'on_site',
  };
}

export function smartRecruitersPosting(company: string, p: FakePosting) {
  const [c = '', r = '', country = 'us'] = (p.location ?? '').split(',').map((x) => x.trim());
  return {
    id: p.id,
    uuid: `uuid-${p.id}`,
    name: p.title,
    jobAdId: `ad-${p.id}`,
    defaultJobAd: true,
    refNumber: `REF${p.id}`,
    company: { identifier: company, name: company },
    releasedDate: posted(p),
    location: {
      city: c,
      region: r,
      country: country.toLowerCase().slice(0, 2),
      remote: p.remote ?? false,
      hybrid: false,
      fullLocation: p.location ?? '',
    },
    industry: { id: 'computer_software', label: 'Computer Software' },
    department: p.department ? { id: '1', label: p.department } : {},
    function: { id: 'engineering', label: 'Engineering' },
    typeOfEmployment: { label: 'Full-time' },
    experienceLevel: { id: 'mid_senior_level', label: 'Mid-Senior Level' },
    customField: [],
    ref: `https://api.smartrecruiters.com/v1/companies/${company}/postings/${p.id}`,
    creator: { name: 'Recruiter' },
  };
}

export function smartRecruitersDetail(company: string, p: FakePosting) {
  return {
    ...smartRecruitersPosting(company, p),
    postingUrl: `https://jobs.smartrecruiters.com/${company}/${p.id}-${p.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    applyUrl: `https://jobs.smartrecruiters.com/${company}/${p.id}/apply`,
    jobAd: {
      sections: {
        companyDescription: { title: 'Company Description', text: `<p>${company} builds AI.</p>` },
        jobDescription: { title: 'Job Description', text: p.descriptionHtml ?? '' },
        qualifications: { title: 'Qualifications', text: '<ul><li>Curiosity</li></ul>' },
        additionalInformation: { title: 'Additional Information', text: '' },
      },
    },
  };
}

export function recruiteeOffer(sub: string, p: FakePosting) {
  const slug = p.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const [c = '', , country = ''] = (p.location ?? '').split(',').map((x) => x.trim());
  const at = posted(p)
    .replace('T', ' ')
    .replace(/(\.\d+)?Z$/, ' UTC');
  return {
    id: numericId(p.id),
    slug,
    title: p.title,
    status: 'published',
    department: p.department ?? null,
    location: p.location ?? '',
    city: c,
    country,
    country_code: '',
    state_code: '',
    remote: p.remote ?? false,
    hybrid: false,
    on_site: !(p.remote ?? false),
    locations: [{ city: c, state: '', country, country_code: '' }],
    careers_url: `https://${sub}.recruitee.com/o/${slug}`,
    careers_apply_url: `https://${sub}.recruitee.com/o/${slug}/c/new`,
    published_at: at,
    created_at: at,
    updated_at: at,
    close_at: null,
    employment_type_code: 'fulltime',
    description: p.descriptionHtml ?? '',
    requirements: '<ul><li>Fluent English</li></ul>',
    company_name: sub,
    tags: [],
    translations: {},
    ...(p.salary
      ? {
          salary: {
            min: String(p.salary.min),
            max: String(p.salary.max),
            currency: p.salary.currency,
            period: 'year',
          },
        }
      : {}),
  };
}
