/** The fixed value lists of the filters; `get_filter_options` returns them as they are here. */

export const EXPERIENCE_LEVELS = ['Entry', 'Mid', 'Senior', 'Lead', 'Executive'] as const;
export const WORK_TYPES = ['Remote', 'Hybrid', 'On-site'] as const;
export const EMPLOYMENT_TYPES = [
  'Full-time',
  'Part-time',
  'Contract',
  'Internship',
  'Temporary',
  'Freelance',
] as const;
export const COMPANY_SIZE_BANDS = ['startup', 'scale_up', 'small', 'medium', 'enterprise'] as const;
export const CURRENCIES = ['GBP', 'EUR', 'USD'] as const;
export const SALARY_PERIODS = ['year', 'month', 'week', 'day', 'hour'] as const;
export const SIGNAL_CATEGORIES = [
  'funding',
  'grant',
  'investor_fund',
  'new_location',
  'acquisition',
  'c_level_change',
  'layoff',
  'technology_change',
  'outsourcing',
] as const;
export const SIGNAL_POLARITIES = ['positive', 'negative', 'neutral'] as const;
export const SIGNAL_COUNTRIES = ['GB', 'IE', 'DE', 'AT', 'CH', 'PL', 'RO', 'BG'] as const;

/** The dimensions and metrics of `get_market_insights`. */
export const INSIGHT_GROUP_BY = [
  'experience_level',
  'work_type',
  'employment_type',
  'company',
  'skill',
  'city',
  'country',
  'industry',
  'title',
  'posted_week',
  'posted_month',
] as const;
export const INSIGHT_BREAKDOWN_BY = ['experience_level', 'work_type', 'employment_type', 'country'] as const;
export const INSIGHT_METRICS = ['count', 'salary'] as const;
export type InsightGroupBy = (typeof INSIGHT_GROUP_BY)[number];
export type InsightMetric = (typeof INSIGHT_METRICS)[number];
export type InsightBreakdownBy = (typeof INSIGHT_BREAKDOWN_BY)[number];

export const COMPANY_SIZE_BAND_LABELS: Record<CompanySizeBand, string> = {
  startup: 'Startup (1-50 employees, early stage)',
  scale_up: 'Scale-up (51-250 employees, growing fast)',
  small: 'Small (11-200 employees)',
  medium: 'Medium (201-1,000 employees)',
  enterprise: 'Enterprise (1,000+ employees)',
};

export type ExperienceLevel = (typeof EXPERIENCE_LEVELS)[number];
export type WorkType = (typeof WORK_TYPES)[number];
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
export type CompanySizeBand = (typeof COMPANY_SIZE_BANDS)[number];
export type Currency = (typeof CURRENCIES)[number];
export type SalaryPeriod = (typeof SALARY_PERIODS)[number];
export type SignalCategory = (typeof SIGNAL_CATEGORIES)[number];
export type SignalPolarity = (typeof SIGNAL_POLARITIES)[number];

/** The bounds of `radius_km`, and of a distance typed in a location ("within 30 km of Berlin"). */
export const RADIUS_KM = { min: 1, max: 200 } as const;
