import { api } from '../../lib/api.ts';

/** Plain calls without TanStack Query, for the login page (which must stay small). */
export interface CustomerLogo {
  name: string;
  logo: string | null;
}

export const fetchCustomerLogo = () => api.get('/iotapp/customer-logo/', { toast: false });
